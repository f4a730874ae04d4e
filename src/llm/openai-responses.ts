import type OpenAI from "openai";
import type { ErrorContext } from "./errors.js";
import { endedEarly, guardedStream, translateAll } from "./guarded-stream.js";
import type { StreamTranslator } from "./guarded-stream.js";
import { usageChunk } from "./models.js";
import { openAiClientOf } from "./openai.js";
import { reasoningItemSignature, toResponsesInput, toResponsesTools } from "./openai-responses-input.js";
import type { StallTimeouts } from "./stall.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest } from "./types.js";

export interface OpenAiResponsesProviderOptions {
  /** The fetch the SDK uses (a proxy-aware one, see proxy-fetch.ts); default the global fetch. */
  fetch?: typeof fetch;
  /** Local servers need none; a placeholder is sent. */
  apiKey?: string;
  model: ModelInfo;
  baseUrl?: string;
  stall?: Partial<StallTimeouts>;
  /** `max_output_tokens`; sent only when set. */
  maxTokens?: number;
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
  /** Named in auth errors. Default OPENAI_API_KEY. */
  apiKeyEnv?: string;
  /** A client built elsewhere (Azure OpenAI's); the key, base URL and fetch options are then its own. */
  client?: OpenAI;
  /** What to run when credentials that are not a key are refused (Azure's Entra ID: `az login`). */
  authRemedy?: string;
  /** The provider's name in messages; default "openai-responses". */
  name?: string;
  /** Told when the history held reasoning this API cannot take back. */
  onNotice?: (message: string) => void;
}

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

/**
 * Streams answers from OpenAI's Responses API through the official SDK. Nothing is stored on the
 * server (`store: false`): reasoning comes back encrypted and is sent back with the history.
 */
export class OpenAiResponsesProvider implements Provider {
  readonly name: string;
  readonly model: ModelInfo;
  private readonly client: OpenAI;
  private readonly options: OpenAiResponsesProviderOptions;
  private readonly context: ErrorContext;
  private lastNote: string | undefined;

  constructor(options: OpenAiResponsesProviderOptions) {
    this.options = options;
    this.model = options.model;
    this.name = options.name ?? "openai-responses";
    ({ context: this.context, client: this.client } = openAiClientOf(this.name, options));
  }

  get baseUrl(): string {
    return this.client.baseURL;
  }

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    const { input, note } = toResponsesInput(request.messages, { keepReasoning: this.model.supportsReasoning });
    // Once per distinct note: every later request of the task would repeat it.
    if (note !== undefined && note !== this.lastNote) this.options.onNotice?.(note);
    this.lastNote = note;
    const reasoning = this.model.supportsReasoning;
    const body: OpenAI.Responses.ResponseCreateParamsStreaming = {
      model: this.model.id,
      instructions: request.systemPrompt,
      input,
      stream: true,
      store: false,
      ...(reasoning
        ? {
            include: ["reasoning.encrypted_content"],
            reasoning: { summary: "auto", ...(this.options.reasoningEffort === undefined ? {} : { effort: this.options.reasoningEffort }) },
          }
        : {}),
      ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: toResponsesTools(request.tools) }),
      ...(this.options.maxTokens === undefined ? {} : { max_output_tokens: this.options.maxTokens }),
    };
    return guardedStream<StreamEvent>({
      signal: request.signal,
      ...(this.options.stall === undefined ? {} : { stall: this.options.stall }),
      context: this.context,
      open: (signal) => this.client.responses.create(body, { signal }),
      translator: () => new ResponsesTranslator(this.model, this.context),
    });
  }
}

/** An error the server reported inside the stream, shaped as toProviderError reads SDK errors. */
class ResponsesStreamError extends Error {
  readonly error: { type: string; code: string; message: string };

  constructor(code: string | null | undefined, message: string) {
    super(message);
    this.name = "APIError";
    const type = code ?? "server_error";
    this.error = { type, code: type, message };
  }
}

function usageOf(model: ModelInfo, usage: OpenAI.Responses.ResponseUsage | null | undefined): Chunk | undefined {
  if (usage === null || usage === undefined) return undefined;
  const cached = usage.input_tokens_details.cached_tokens;
  const chunk = usageChunk(model, {
    inputTokens: Math.max(0, usage.input_tokens - cached),
    outputTokens: usage.output_tokens,
    cacheReadTokens: cached,
  });
  const reasoningTokens = usage.output_tokens_details.reasoning_tokens;
  return reasoningTokens > 0 ? { ...chunk, reasoningTokens } : chunk;
}

const incompleteReasons: Record<string, string> = { max_output_tokens: "max_tokens", content_filter: "content_filter" };

/**
 * Responses stream events to chunks. Function calls are numbered in order of appearance and
 * found again by their output index; reasoning summaries are reasoning, and each finished
 * reasoning item with encrypted content closes its block with a signature that carries the item.
 * Stop reasons use the one vocabulary (end_turn, tool_use, max_tokens).
 */
export class ResponsesTranslator implements StreamTranslator<StreamEvent> {
  readonly #toolIndexByOutput = new Map<number, number>();
  readonly #summaryPartsSeen = new Map<string, number>();

  constructor(
    private readonly model: ModelInfo,
    private readonly context: ErrorContext,
  ) {}

  push(event: StreamEvent, out: Chunk[]): boolean {
    switch (event.type) {
      case "response.output_text.delta":
      case "response.refusal.delta":
        // A refusal is what the model says instead of an answer: the user must see it.
        if (event.delta !== "") out.push({ type: "text", text: event.delta });
        return false;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        // Summary parts of one item are separate paragraphs.
        const key = `${event.item_id}:${event.type === "response.reasoning_summary_text.delta" ? event.summary_index : event.content_index}`;
        if (!this.#summaryPartsSeen.has(key)) {
          const partsOfItem = [...this.#summaryPartsSeen.keys()].filter((seen) => seen.startsWith(`${event.item_id}:`)).length;
          this.#summaryPartsSeen.set(key, 1);
          if (partsOfItem > 0) out.push({ type: "reasoning", text: "\n\n" });
        }
        if (event.delta !== "") out.push({ type: "reasoning", text: event.delta });
        return false;
      }
      case "response.output_item.added":
        if (event.item.type === "function_call") {
          const index = this.#toolIndexByOutput.size;
          this.#toolIndexByOutput.set(event.output_index, index);
          out.push({ type: "tool_call", index, id: event.item.call_id, name: event.item.name, argumentsDelta: event.item.arguments });
        }
        return false;
      case "response.function_call_arguments.delta": {
        const index = this.#toolIndexByOutput.get(event.output_index);
        if (index !== undefined && event.delta !== "") out.push({ type: "tool_call", index, argumentsDelta: event.delta });
        return false;
      }
      case "response.output_item.done":
        if (event.item.type === "reasoning") {
          const signature = reasoningItemSignature(event.item);
          if (signature !== undefined) out.push({ type: "reasoning", text: "", signature });
        }
        return false;
      case "response.completed":
      case "response.incomplete": {
        const usage = usageOf(this.model, event.response.usage);
        if (usage !== undefined) out.push(usage);
        if (event.type === "response.incomplete") {
          const reason = event.response.incomplete_details?.reason ?? "max_output_tokens";
          out.push({ type: "stop", reason: incompleteReasons[reason] ?? reason });
        } else {
          out.push({ type: "stop", reason: this.#toolIndexByOutput.size > 0 ? "tool_use" : "end_turn" });
        }
        return true;
      }
      case "response.failed": {
        const failure = event.response.error;
        throw new ResponsesStreamError(failure?.code, failure?.message ?? "the response failed");
      }
      case "error":
        throw new ResponsesStreamError(event.code, event.message);
      default:
        return false;
    }
  }

  end(): void {
    throw endedEarly(this.context, "response.completed");
  }
}

/** Responses stream events to chunks, for tests without HTTP. */
export function translateResponsesEvents(events: AsyncIterable<StreamEvent>, model: ModelInfo, context: ErrorContext): AsyncGenerator<Chunk> {
  return translateAll(new ResponsesTranslator(model, context), events);
}
