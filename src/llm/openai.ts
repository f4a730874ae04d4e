import OpenAI from "openai";
import type { ErrorContext } from "./errors.js";
import { endedEarly, guardedStream } from "./guarded-stream.js";
import type { StreamTranslator } from "./guarded-stream.js";
import { usageChunk } from "./models.js";
import { toOpenAiMessages, toOpenAiTools } from "./openai-messages.js";
import { DroppedReasoning } from "./reasoning-signature.js";
import type { ReasoningHistory } from "./openai-messages.js";
import type { StallTimeouts } from "./stall.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest } from "./types.js";

/**
 * Where OpenAI-compatible servers differ. One adapter, these flags; `compatibilityFor` picks
 * defaults from the base URL and the user's configuration can override each one.
 */
export interface OpenAiCompatibility {
  /** Send `stream_options.include_usage` (some older servers reject unknown options). */
  includeUsage: boolean;
  /** How earlier reasoning goes back to the server. */
  reasoningHistory: ReasoningHistory;
  /** Field for the output limit; "none" sends no limit. */
  maxTokensField: "max_completion_tokens" | "max_tokens" | "none";
  systemRole: "system" | "developer";
}

export function compatibilityFor(baseUrl: string | undefined, overrides: Partial<OpenAiCompatibility> = {}): OpenAiCompatibility {
  const official = baseUrl === undefined || /(^|\.)api\.openai\.com/.test(new URL(baseUrl).hostname);
  const deepseek = baseUrl !== undefined && /deepseek/i.test(baseUrl);
  return {
    includeUsage: true,
    reasoningHistory: deepseek ? "reasoning_content" : "drop",
    maxTokensField: official ? "max_completion_tokens" : "max_tokens",
    systemRole: "system",
    ...overrides,
  };
}

export interface OpenAiProviderOptions {
  /** The fetch the SDK uses (a proxy-aware one, see proxy-fetch.ts); default the global fetch. */
  fetch?: typeof fetch;
  /** Local servers need none; a placeholder is sent. */
  apiKey?: string;
  model: ModelInfo;
  baseUrl?: string;
  stall?: Partial<StallTimeouts>;
  compatibility?: Partial<OpenAiCompatibility>;
  /** Sent only when set, in the field the compatibility flags name. */
  maxTokens?: number;
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
  /** Named in auth errors. Default OPENAI_API_KEY. */
  apiKeyEnv?: string;
  /** A client built elsewhere (Azure OpenAI's); the key, base URL and fetch options are then its own. */
  client?: OpenAI;
  /** What to run when credentials that are not a key are refused (Azure's Entra ID: `az login`). */
  authRemedy?: string;
  /** The provider's name in messages; default "openai". */
  name?: string;
  /** Says once when reasoning signed by another API is left out (a task resumed here, #20). */
  onNotice?: (message: string) => void;
}

/** Streams Chat Completions answers from OpenAI or any OpenAI-compatible server through the official SDK. */
export class OpenAiProvider implements Provider {
  readonly name: string;
  readonly model: ModelInfo;
  readonly compatibility: OpenAiCompatibility;
  private readonly client: OpenAI;
  private readonly options: OpenAiProviderOptions;
  private readonly context: ErrorContext;

  constructor(options: OpenAiProviderOptions) {
    this.options = options;
    this.model = options.model;
    this.compatibility = compatibilityFor(options.baseUrl, options.compatibility);
    this.name = options.name ?? "openai";
    ({ context: this.context, client: this.client } = openAiClientOf(this.name, options));
  }

  get baseUrl(): string {
    return this.client.baseURL;
  }

  private lastNote: string | undefined;

  /** The history as Chat Completions messages; one note per distinct set of signed reasoning left out. */
  private messages(request: ProviderRequest): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
    const dropped = new DroppedReasoning();
    const messages = toOpenAiMessages(request.systemPrompt, request.messages, {
      reasoningHistory: this.compatibility.reasoningHistory,
      systemRole: this.compatibility.systemRole,
      dropped,
    });
    const note = dropped.note("Chat Completions");
    if (note !== undefined && note !== this.lastNote) this.options.onNotice?.(note);
    this.lastNote = note;
    return messages;
  }

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    const flags = this.compatibility;
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: this.model.id,
      messages: this.messages(request),
      stream: true,
      ...(flags.includeUsage ? { stream_options: { include_usage: true } } : {}),
      ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: toOpenAiTools(request.tools) }),
      ...(this.options.reasoningEffort === undefined ? {} : { reasoning_effort: this.options.reasoningEffort }),
    };
    if (this.options.maxTokens !== undefined && flags.maxTokensField !== "none") {
      body[flags.maxTokensField] = this.options.maxTokens;
    }
    return guardedStream<OpenAI.Chat.Completions.ChatCompletionChunk>({
      signal: request.signal,
      ...(this.options.stall === undefined ? {} : { stall: this.options.stall }),
      context: this.context,
      open: (signal) => this.client.chat.completions.create(body, { signal }),
      translator: () => new OpenAiChatTranslator(this.model, this.context),
    });
  }
}

const stopReasons: Record<string, string> = { stop: "end_turn", tool_calls: "tool_use", function_call: "tool_use", length: "max_tokens" };

function reasoningText(delta: object): string | undefined {
  // DeepSeek, vLLM and llama.cpp send `reasoning_content`; OpenRouter and Ollama send `reasoning`.
  const record = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof record.reasoning_content === "string") return record.reasoning_content;
  if (typeof record.reasoning === "string") return record.reasoning;
  return undefined;
}

/**
 * Chat Completions chunks to chunks. Usage arrives after the finish reason (in a chunk with no
 * choices), so usage and stop are added when the stream ends. Stop reasons are named as
 * Anthropic names them (end_turn, tool_use, max_tokens) so the Task sees one vocabulary.
 */
export class OpenAiChatTranslator implements StreamTranslator<OpenAI.Chat.Completions.ChatCompletionChunk> {
  #finishReason: string | undefined;
  #usage: OpenAI.CompletionUsage | undefined;

  constructor(
    private readonly model: ModelInfo,
    private readonly context: ErrorContext,
  ) {}

  push(chunk: OpenAI.Chat.Completions.ChatCompletionChunk, out: Chunk[]): boolean {
    if (chunk.usage) this.#usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) return false;
    const delta = choice.delta as OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta | undefined;
    if (delta !== undefined && delta !== null) {
      const reasoning = reasoningText(delta);
      if (reasoning !== undefined && reasoning !== "") out.push({ type: "reasoning", text: reasoning });
      if (typeof delta.content === "string" && delta.content !== "") out.push({ type: "text", text: delta.content });
      const calls = delta.tool_calls;
      if (calls !== undefined && calls !== null) {
        for (const [position, call] of calls.entries()) {
          const index = typeof call.index === "number" ? call.index : position;
          const id = call.id === undefined || call.id === null || call.id === "" ? undefined : call.id;
          const name = call.function?.name ?? undefined;
          out.push({
            type: "tool_call",
            index,
            ...(id === undefined ? {} : { id }),
            ...(name === undefined || name === "" ? {} : { name }),
            argumentsDelta: call.function?.arguments ?? "",
          });
        }
      }
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.#finishReason = choice.finish_reason;
    return false;
  }

  end(out: Chunk[]): void {
    const finishReason = this.#finishReason;
    if (finishReason === undefined) throw endedEarly(this.context, "a finish_reason");
    const usage = this.#usage;
    if (usage !== undefined) {
      const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
      out.push(
        usageChunk(this.model, {
          inputTokens: Math.max(0, usage.prompt_tokens - cached),
          outputTokens: usage.completion_tokens,
          cacheReadTokens: cached,
        }),
      );
    }
    out.push({ type: "stop", reason: stopReasons[finishReason] ?? finishReason });
  }
}

/** The SDK client (one built elsewhere, Azure's, or the package's own, retrying nothing: the Task does) and the error context of an OpenAI-style provider. */
export function openAiClientOf(name: string, options: { client?: OpenAI; apiKey?: string; baseUrl?: string; fetch?: typeof fetch; apiKeyEnv?: string; authRemedy?: string }): { context: ErrorContext; client: OpenAI } {
  const context: ErrorContext = { providerName: name, apiKeyEnv: options.apiKeyEnv ?? "OPENAI_API_KEY", sdk: OpenAI, ...(options.authRemedy === undefined ? {} : { authRemedy: options.authRemedy }) };
  const client =
    options.client ??
    new OpenAI({
      apiKey: options.apiKey ?? "not-needed",
      maxRetries: 0,
      ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  return { context, client };
}
