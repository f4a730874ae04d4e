/**
 * cairn's one internal message format, converted to each provider's API.
 * Providers and the Task both speak it; nothing here knows about tasks or tools.
 */
export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  /** e.g. "image/png" */
  mediaType: string;
  /** base64 data */
  data: string;
}

export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: string | Array<TextContent | ImageContent>;
  isError?: boolean;
}

export interface ReasoningContent {
  type: "reasoning";
  text: string;
  /** Anthropic thinking signature */
  signature?: string;
  /** Anthropic redacted_thinking data */
  redactedData?: string;
}

export type ContentBlock = TextContent | ImageContent | ToolUseContent | ToolResultContent | ReasoningContent;

export interface Message {
  role: "user" | "assistant";
  content: ContentBlock[];
}

/** A tool offered to the model as a native JSON schema. */
export interface ToolSchema {
  name: string;
  description: string;
  /** JSON schema of type "object" */
  inputSchema: Record<string, unknown>;
}

export interface UsageChunk {
  type: "usage";
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Of `outputTokens`, those spent reasoning (OpenAI Responses reports them). */
  reasoningTokens?: number;
  /** Cost in USD of this usage, from the model catalogue. */
  cost?: number;
}

/** What a provider stream yields. */
export type Chunk =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string; signature?: string; redactedData?: string }
  /** A native tool-call delta: `index` identifies the call within this answer. */
  | { type: "tool_call"; index: number; id?: string; name?: string; argumentsDelta: string }
  | UsageChunk
  | { type: "stop"; reason: string };

export interface ModelInfo {
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens */
  inputPrice: number;
  outputPrice: number;
  cacheReadPrice?: number;
  cacheWritePrice?: number;
  supportsImages: boolean;
  supportsReasoning: boolean;
}

export interface ProviderRequest {
  systemPrompt: string;
  messages: Message[];
  /** Present only with the native tool protocol. */
  tools?: ToolSchema[];
  signal: AbortSignal;
}

export interface Provider {
  readonly name: string;
  readonly model: ModelInfo;
  /** Where requests go, named in errors a retry cannot fix (issue #12). */
  readonly baseUrl?: string;
  /**
   * Streams one answer. Errors are thrown as `ProviderError` (see errors.ts),
   * from the first `next()` or later ones; aborting `signal` closes the HTTP stream at once.
   */
  createMessage(request: ProviderRequest): AsyncIterable<Chunk>;
}

export type ProviderErrorKind = "rate_limit" | "overloaded" | "server" | "auth" | "bad_request" | "context_window" | "network" | "stalled" | "aborted";
