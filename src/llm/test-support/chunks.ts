import type { Chunk, Message, Provider, ProviderRequest, ToolSchema } from "../types.js";

export interface Collected {
  chunks: Chunk[];
  error?: unknown;
}

/** Drains a provider stream, keeping what arrived before an error. */
export async function collect(stream: AsyncIterable<Chunk>): Promise<Collected> {
  const chunks: Chunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

export function textOf(chunks: Chunk[]): string {
  return chunks.map((chunk) => (chunk.type === "text" ? chunk.text : "")).join("");
}

export function reasoningOf(chunks: Chunk[]): string {
  return chunks.map((chunk) => (chunk.type === "reasoning" ? chunk.text : "")).join("");
}

/** Tool calls rebuilt from their deltas: index -> { id, name, arguments }. */
export function toolCallsOf(chunks: Chunk[]): Array<{ id?: string; name?: string; arguments: string }> {
  const calls: Array<{ id?: string; name?: string; arguments: string }> = [];
  for (const chunk of chunks) {
    if (chunk.type !== "tool_call") continue;
    const call = (calls[chunk.index] ??= { arguments: "" });
    if (chunk.id !== undefined) call.id = chunk.id;
    if (chunk.name !== undefined) call.name = chunk.name;
    call.arguments += chunk.argumentsDelta;
  }
  return calls;
}

export const readFileTool: ToolSchema = {
  name: "read_file",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

export function simpleRequest(signal: AbortSignal = new AbortController().signal, extra: { tools?: ToolSchema[]; messages?: Message[] } = {}): ProviderRequest {
  return {
    systemPrompt: "You are cairn.",
    messages: extra.messages ?? [{ role: "user", content: [{ type: "text", text: "Say hello." }] }],
    ...(extra.tools === undefined ? {} : { tools: extra.tools }),
    signal,
  };
}

export async function collectFrom(provider: Provider, request: ProviderRequest = simpleRequest()): Promise<Collected> {
  return collect(provider.createMessage(request));
}
