import Anthropic from "@anthropic-ai/sdk";
import { anthropicSystem, toAnthropicMessages, toAnthropicTools } from "./anthropic-messages.js";
import type { ErrorContext } from "./errors.js";
import { endedEarly, guardedStream } from "./guarded-stream.js";
import type { StreamTranslator } from "./guarded-stream.js";
import { anthropicThinkingMode, usageChunk } from "./models.js";
import { DroppedReasoning } from "./reasoning-signature.js";
import type { StallTimeouts } from "./stall.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest, UsageChunk } from "./types.js";

export interface AnthropicProviderOptions {
  /** The fetch the SDK uses (a proxy-aware one, see proxy-fetch.ts); default the global fetch. */
  fetch?: typeof fetch;
  /** Unused when `client` is given. */
  apiKey?: string;
  model: ModelInfo;
  baseUrl?: string;
  stall?: Partial<StallTimeouts>;
  /** Asks for thinking: this budget on older models, adaptive thinking on newer ones (see anthropicThinkingMode). */
  thinkingBudgetTokens?: number;
  /** Default: the model's maximum output. */
  maxTokens?: number;
  /** Named in auth errors. Default ANTHROPIC_API_KEY. */
  apiKeyEnv?: string;
  /** Told when the history held reasoning this API cannot take back. */
  onNotice?: (message: string) => void;
  /** A client built elsewhere (Bedrock's, Vertex AI's); the key, base URL and fetch options are then its own. */
  client?: AnthropicClient;
  /** The provider's name in messages; default "anthropic". */
  name?: string;
  /** What to run when credentials that are not a key are refused (`aws sso login` ...). */
  authRemedy?: string;
}

/** What the provider uses of a client: streaming Messages and where it sends requests (Bedrock's and Vertex AI's clients have no batches). */
export interface AnthropicClient {
  readonly baseURL: string;
  messages: Pick<Anthropic["messages"], "create">;
}

/** Streams Anthropic Messages answers through the official SDK (which does no retries of its own: the Task does). */
export class AnthropicProvider implements Provider {
  readonly name: string;
  readonly model: ModelInfo;
  private readonly client: AnthropicClient;
  private readonly options: AnthropicProviderOptions;
  private readonly context: ErrorContext;
  private lastNote: string | undefined;

  constructor(options: AnthropicProviderOptions) {
    this.options = options;
    this.model = options.model;
    this.name = options.name ?? "anthropic";
    this.context = {
      providerName: this.name,
      apiKeyEnv: options.apiKeyEnv ?? "ANTHROPIC_API_KEY",
      sdk: Anthropic,
      ...(options.authRemedy === undefined ? {} : { authRemedy: options.authRemedy }),
    };
    this.client =
      options.client ??
      new Anthropic({
        apiKey: options.apiKey ?? null,
        maxRetries: 0,
        ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      });
  }

  get baseUrl(): string {
    return this.client.baseURL;
  }

  private thinking(budget: number): Anthropic.ThinkingConfigParam {
    return anthropicThinkingMode(this.model.id) === "adaptive" ? { type: "adaptive" } : { type: "enabled", budget_tokens: budget };
  }

  /** The history as Messages params; one note per distinct set of reasoning left out. */
  private messages(request: ProviderRequest): Anthropic.MessageParam[] {
    const dropped = new DroppedReasoning();
    const messages = toAnthropicMessages(request.messages, { dropped });
    const note = dropped.note("the Anthropic API");
    if (note !== undefined && note !== this.lastNote) this.options.onNotice?.(note);
    this.lastNote = note;
    return messages;
  }

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    const budget = this.model.supportsReasoning ? this.options.thinkingBudgetTokens : undefined;
    const maxTokens = Math.max(this.options.maxTokens ?? this.model.maxOutputTokens, (budget ?? 0) + 1024);
    const body: Anthropic.MessageCreateParamsStreaming = {
      model: this.model.id,
      max_tokens: maxTokens,
      system: anthropicSystem(request.systemPrompt),
      messages: this.messages(request),
      stream: true,
      ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: toAnthropicTools(request.tools) }),
      ...(budget === undefined ? {} : { thinking: this.thinking(budget) }),
    };
    return guardedStream<Anthropic.RawMessageStreamEvent>({
      signal: request.signal,
      ...(this.options.stall === undefined ? {} : { stall: this.options.stall }),
      context: this.context,
      open: (signal) => this.client.messages.create(body, { signal }),
      translator: () => new AnthropicTranslator(this.model, this.context),
    });
  }
}

/** Anthropic stream events to chunks; tool calls are numbered in order of appearance. */
export class AnthropicTranslator implements StreamTranslator<Anthropic.RawMessageStreamEvent> {
  readonly #toolIndexByBlock = new Map<number, number>();
  #inputTokens = 0;
  #outputTokens = 0;
  #cacheReadTokens = 0;
  #cacheWriteTokens = 0;
  #stopReason = "end_turn";
  /** message_start told the usage, and no usage chunk has said it yet. */
  #usageUnreported = false;

  constructor(
    private readonly model: ModelInfo,
    private readonly context: ErrorContext,
  ) {}

  push(event: Anthropic.RawMessageStreamEvent, out: Chunk[]): boolean {
    switch (event.type) {
      case "content_block_delta": {
        const delta = event.delta;
        if (delta.type === "text_delta") out.push({ type: "text", text: delta.text });
        else if (delta.type === "thinking_delta") out.push({ type: "reasoning", text: delta.thinking });
        else if (delta.type === "signature_delta") out.push({ type: "reasoning", text: "", signature: delta.signature });
        else if (delta.type === "input_json_delta") {
          const index = this.#toolIndexByBlock.get(event.index);
          if (index !== undefined && delta.partial_json !== "") out.push({ type: "tool_call", index, argumentsDelta: delta.partial_json });
        }
        return false;
      }
      case "message_start": {
        const usage = event.message.usage;
        this.#inputTokens = usage.input_tokens;
        this.#outputTokens = usage.output_tokens;
        this.#cacheReadTokens = usage.cache_read_input_tokens ?? 0;
        this.#cacheWriteTokens = usage.cache_creation_input_tokens ?? 0;
        this.#usageUnreported = true;
        return false;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text" && block.text !== "") out.push({ type: "text", text: block.text });
        else if (block.type === "thinking" && block.thinking !== "") out.push({ type: "reasoning", text: block.thinking });
        else if (block.type === "redacted_thinking") out.push({ type: "reasoning", text: "", redactedData: block.data });
        else if (block.type === "tool_use") {
          const index = this.#toolIndexByBlock.size;
          this.#toolIndexByBlock.set(event.index, index);
          out.push({ type: "tool_call", index, id: block.id, name: block.name, argumentsDelta: "" });
        }
        return false;
      }
      case "message_delta": {
        // message_delta usage is cumulative; newer API versions repeat the input counts here too.
        const usage = event.usage;
        this.#outputTokens = usage.output_tokens;
        if (typeof usage.input_tokens === "number") this.#inputTokens = usage.input_tokens;
        if (typeof usage.cache_read_input_tokens === "number") this.#cacheReadTokens = usage.cache_read_input_tokens;
        if (typeof usage.cache_creation_input_tokens === "number") this.#cacheWriteTokens = usage.cache_creation_input_tokens;
        if (event.delta.stop_reason !== null) this.#stopReason = event.delta.stop_reason;
        return false;
      }
      case "message_stop":
        this.#usageUnreported = false;
        out.push(this.#usage(), { type: "stop", reason: this.#stopReason });
        return true;
      default:
        return false;
    }
  }

  end(): void {
    throw endedEarly(this.context, "message_stop");
  }

  /** An answer left early is billed for what the API counted: its input, and the output reported so far. */
  unreportedUsage(): UsageChunk | undefined {
    if (!this.#usageUnreported) return undefined;
    this.#usageUnreported = false;
    return this.#usage();
  }

  #usage(): UsageChunk {
    return usageChunk(this.model, {
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      cacheReadTokens: this.#cacheReadTokens,
      cacheWriteTokens: this.#cacheWriteTokens,
    });
  }
}
