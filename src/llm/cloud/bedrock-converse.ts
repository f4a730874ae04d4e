/**
 * Bedrock's Converse stream API (issue 34) for the models that are not Anthropic's (Nova, Llama,
 * Mistral, DeepSeek ...): ConverseStreamCommand of @aws-sdk/client-bedrock-runtime, its events
 * translated to cairn's chunks with the same stop-reason vocabulary as the other providers.
 */
import { BedrockRuntimeClient, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import type { ConverseStreamCommandInput, ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import type { ErrorContext } from "../errors.js";
import { endedEarly, guardedStream } from "../guarded-stream.js";
import type { SdkStream, StreamTranslator } from "../guarded-stream.js";
import { usageChunk } from "../models.js";
import type { StallTimeouts } from "../stall.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest, UsageChunk } from "../types.js";
import { shapeAwsError } from "./aws-setup.js";
import type { AwsSetup } from "./aws-setup.js";
import { toConverseMessages, toConverseTools } from "./converse-messages.js";

export interface BedrockConverseOptions {
  model: ModelInfo;
  aws: AwsSetup;
  /** An endpoint other than `https://bedrock-runtime.REGION.amazonaws.com` (a VPC endpoint, a test server). */
  endpoint?: string;
  stall?: Partial<StallTimeouts>;
  /** Default: the model's maximum output. */
  maxTokens?: number;
}

export class BedrockConverseProvider implements Provider {
  readonly name = "bedrock";
  readonly model: ModelInfo;
  readonly baseUrl: string;
  private readonly client: BedrockRuntimeClient;
  private readonly options: BedrockConverseOptions;
  private readonly context: ErrorContext;

  constructor(options: BedrockConverseOptions) {
    this.options = options;
    this.model = options.model;
    const { aws } = options;
    this.baseUrl = options.endpoint ?? `https://bedrock-runtime.${aws.region}.amazonaws.com`;
    this.context = { providerName: "bedrock", authRemedy: aws.remedy, shapeError: shapeAwsError };
    // The AWS SDK warns on stderr that it will drop Node 20 one day; cairn's stderr is the user's: its documented switch.
    process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
    this.client = new BedrockRuntimeClient({
      region: aws.region,
      maxAttempts: 1,
      // HTTP/1.1, as Bedrock serves ConverseStream too: the client's default HTTP/2 handler is for bidirectional streams.
      requestHandler: new NodeHttpHandler(),
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(aws.bearerToken === undefined ? { credentials: aws.credentials } : { token: { token: aws.bearerToken }, authSchemePreference: ["httpBearerAuth"] }),
    });
  }

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    const input: ConverseStreamCommandInput = {
      modelId: this.model.id,
      system: [{ text: request.systemPrompt }],
      messages: toConverseMessages(request.messages),
      inferenceConfig: { maxTokens: this.options.maxTokens ?? this.model.maxOutputTokens },
      ...(request.tools === undefined || request.tools.length === 0 ? {} : { toolConfig: { tools: toConverseTools(request.tools) } }),
    };
    return guardedStream<ConverseStreamOutput>({
      signal: request.signal,
      ...(this.options.stall === undefined ? {} : { stall: this.options.stall }),
      context: this.context,
      open: (signal) => this.open(input, signal),
      translator: () => new ConverseTranslator(this.model, this.context),
    });
  }

  private async open(input: ConverseStreamCommandInput, signal: AbortSignal): Promise<SdkStream<ConverseStreamOutput>> {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    signal.addEventListener("abort", abort, { once: true });
    if (signal.aborted) controller.abort();
    const response = await this.client.send(new ConverseStreamCommand(input), { abortSignal: controller.signal });
    const stream = response.stream;
    if (stream === undefined) throw new Error("Bedrock answered without a stream");
    return { controller, [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator]() };
  }
}

const stopReasons: Record<string, string> = { end_turn: "end_turn", tool_use: "tool_use", max_tokens: "max_tokens", stop_sequence: "end_turn", model_context_window_exceeded: "max_tokens" };

/** Converse stream events to chunks; tool uses are numbered in order of appearance. */
export class ConverseTranslator implements StreamTranslator<ConverseStreamOutput> {
  readonly #toolIndexByBlock = new Map<number, number>();
  #stopReason: string | undefined;

  constructor(
    private readonly model: ModelInfo,
    private readonly context: ErrorContext,
  ) {}

  push(event: ConverseStreamOutput, out: Chunk[]): boolean {
    if (event.contentBlockDelta !== undefined) {
      const { delta, contentBlockIndex } = event.contentBlockDelta;
      if (delta?.text !== undefined && delta.text !== "") out.push({ type: "text", text: delta.text });
      else if (delta?.toolUse?.input !== undefined) {
        const index = this.#toolIndexByBlock.get(contentBlockIndex ?? -1);
        if (index !== undefined && delta.toolUse.input !== "") out.push({ type: "tool_call", index, argumentsDelta: delta.toolUse.input });
      } else if (delta?.reasoningContent !== undefined) {
        const reasoning = delta.reasoningContent;
        if (reasoning.text !== undefined && reasoning.text !== "") out.push({ type: "reasoning", text: reasoning.text });
      }
      return false;
    }
    if (event.contentBlockStart !== undefined) {
      const toolUse = event.contentBlockStart.start?.toolUse;
      if (toolUse !== undefined) {
        const index = this.#toolIndexByBlock.size;
        this.#toolIndexByBlock.set(event.contentBlockStart.contentBlockIndex ?? -1, index);
        out.push({ type: "tool_call", index, ...(toolUse.toolUseId === undefined ? {} : { id: toolUse.toolUseId }), ...(toolUse.name === undefined ? {} : { name: toolUse.name }), argumentsDelta: "" });
      }
      return false;
    }
    if (event.messageStop !== undefined) {
      const reason = event.messageStop.stopReason ?? "end_turn";
      this.#stopReason = stopReasons[reason] ?? reason;
      return false;
    }
    if (event.metadata !== undefined) {
      // Usage comes last, after the stop reason: it closes the answer.
      const usage = event.metadata.usage;
      out.push(this.#usage(usage?.inputTokens ?? 0, usage?.outputTokens ?? 0, usage?.cacheReadInputTokens ?? 0, usage?.cacheWriteInputTokens ?? 0), { type: "stop", reason: this.#stopReason ?? "end_turn" });
      return true;
    }
    return false;
  }

  end(out: Chunk[]): void {
    if (this.#stopReason === undefined) throw endedEarly(this.context, "messageStop");
    out.push({ type: "stop", reason: this.#stopReason });
  }

  #usage(inputTokens: number, outputTokens: number, cacheReadTokens: number, cacheWriteTokens: number): UsageChunk {
    return usageChunk(this.model, { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens });
  }
}
