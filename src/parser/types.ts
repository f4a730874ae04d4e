/** A block of an assistant answer, as cut by the parser or assembled from native tool calls. */
export interface TextBlock {
  type: "text";
  content: string;
  partial: boolean;
}

export interface ReasoningBlock {
  type: "reasoning";
  content: string;
  partial: boolean;
  /** Anthropic thinking signature, kept so the history can be sent back. */
  signature?: string;
  /** Anthropic redacted_thinking data: an encrypted block sent back unchanged (#11 item 4). */
  redactedData?: string;
}

export interface ToolUseBlock {
  type: "tool_use";
  /** Non-empty, unique within the message, stable from first partial appearance to completion. */
  id: string;
  name: string;
  params: Record<string, string>;
  partial: boolean;
}

export type Block = TextBlock | ToolUseBlock | ReasoningBlock;
