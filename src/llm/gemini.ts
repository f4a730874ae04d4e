import { GoogleGenAI } from "@google/genai";
import type { GenerateContentConfig, GenerateContentResponse } from "@google/genai";
import { randomBytes } from "node:crypto";
import { cloudCredentialsError, ProviderError } from "./errors.js";
import type { ErrorContext } from "./errors.js";
import { geminiProviderError } from "./gemini-errors.js";
import { toGeminiContents, toGeminiTools } from "./gemini-contents.js";
import { endedEarly, guardedStream, translateAll } from "./guarded-stream.js";
import type { StreamTranslator } from "./guarded-stream.js";
import type { SdkStream } from "./guarded-stream.js";
import { usageChunk } from "./models.js";
import { tagSignature } from "./reasoning-signature.js";
import type { StallTimeouts } from "./stall.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest } from "./types.js";

export interface GeminiProviderOptions {
  /** The fetch the SDK uses (a proxy-aware one, see proxy-fetch.ts); default the global fetch. */
  fetch?: typeof fetch;
  /** A server on this machine needs none; a placeholder is sent. */
  apiKey?: string;
  model: ModelInfo;
  /** The SDK's `httpOptions.baseUrl` (without the /v1beta part). */
  baseUrl?: string;
  stall?: Partial<StallTimeouts>;
  /** `maxOutputTokens`; sent only when set. */
  maxTokens?: number;
  /** Named in auth errors. Default GEMINI_API_KEY. */
  apiKeyEnv?: string;
  /** Told when the history held reasoning this API cannot take back. */
  onNotice?: (message: string) => void;
  /**
   * Vertex AI instead of the Gemini API (issue 34): the SDK's Vertex mode, with Application Default
   * Credentials (google-auth-library; `keyFilename` when GOOGLE_APPLICATION_CREDENTIALS names one).
   * A credentials failure says what to run (`remedy`).
   */
  vertex?: { project?: string; location: string; keyFilename?: string; remedy: string };
}

const defaultBaseUrl = "https://generativelanguage.googleapis.com";

/**
 * Streams answers from Google's Gemini API through the official @google/genai SDK (2.32.0: the
 * last release for Node 20). The SDK retries nothing unless asked (no `retryOptions`): the Task does.
 */
export class GeminiProvider implements Provider {
  readonly name: string;
  readonly model: ModelInfo;
  readonly baseUrl: string;
  private readonly client: GoogleGenAI;
  private readonly options: GeminiProviderOptions;
  private readonly context: ErrorContext;
  private lastNote: string | undefined;

  constructor(options: GeminiProviderOptions) {
    this.options = options;
    this.model = options.model;
    this.name = options.vertex === undefined ? "gemini" : "vertex";
    this.baseUrl = options.baseUrl ?? defaultBaseUrl;
    this.context = { providerName: this.name, apiKeyEnv: options.apiKeyEnv ?? (options.vertex === undefined ? "GEMINI_API_KEY" : "GOOGLE_APPLICATION_CREDENTIALS") };
    const httpOptions = {
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    };
    const vertex = options.vertex;
    this.client =
      vertex === undefined
        ? new GoogleGenAI({ apiKey: options.apiKey ?? "not-needed", httpOptions })
        : new GoogleGenAI({
            vertexai: true,
            location: vertex.location,
            ...(vertex.project === undefined ? {} : { project: vertex.project }),
            googleAuthOptions: { scopes: "https://www.googleapis.com/auth/cloud-platform", ...(vertex.keyFilename === undefined ? {} : { keyFilename: vertex.keyFilename }) },
            httpOptions,
          });
  }

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    const { contents, note } = toGeminiContents(request.messages);
    if (note !== undefined && note !== this.lastNote) this.options.onNotice?.(note);
    this.lastNote = note;
    const config: GenerateContentConfig = {
      systemInstruction: request.systemPrompt,
      ...(this.model.supportsReasoning ? { thinkingConfig: { includeThoughts: true } } : {}),
      ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: [{ functionDeclarations: toGeminiTools(request.tools) }] }),
      ...(this.options.maxTokens === undefined ? {} : { maxOutputTokens: this.options.maxTokens }),
    };
    const open = async (signal: AbortSignal): Promise<SdkStream<GenerateContentResponse>> => {
      const controller = new AbortController();
      signal.addEventListener("abort", () => controller.abort(), { once: true });
      try {
        const events = await this.client.models.generateContentStream({
          model: this.model.id,
          contents,
          config: { ...config, abortSignal: controller.signal },
        });
        return { controller, [Symbol.asyncIterator]: () => rethrowing(events, this.context) };
      } catch (error) {
        const vertex = this.options.vertex;
        if (vertex !== undefined && credentialsFailed(error)) {
          throw cloudCredentialsError("no usable Google credentials", vertex.remedy, error);
        }
        throw geminiProviderError(error, this.context);
      }
    };
    return guardedStream<GenerateContentResponse>({
      signal: request.signal,
      ...(this.options.stall === undefined ? {} : { stall: this.options.stall }),
      context: this.context,
      open,
      translator: () => new GeminiTranslator(this.model, this.context),
    });
  }
}

/** google-auth-library's failures (no credentials, a refused token) before the request is sent; an API's answer is an ApiError. */
function credentialsFailed(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === "ApiError") return false;
  return error.name === "GaxiosError" || /credential|invalid_grant|access token|metadata|ENOENT/i.test(error.message);
}

/** Error chunks inside the stream arrive as ApiErrors too. */
async function* rethrowing<T>(events: AsyncIterable<T>, context: ErrorContext): AsyncGenerator<T> {
  try {
    yield* events;
  } catch (error) {
    throw geminiProviderError(error, context);
  }
}

const finishReasons: Record<string, string> = { MAX_TOKENS: "max_tokens", SAFETY: "content_filter", PROHIBITED_CONTENT: "content_filter" };

/**
 * Gemini response chunks to chunks. Thought parts are reasoning; a thought signature closes a
 * reasoning block (tagged, see reasoning-signature.ts) before the part it came with, so it goes
 * back on that part. Function calls arrive whole; Gemini gives them no id, so cairn makes one.
 */
export class GeminiTranslator implements StreamTranslator<GenerateContentResponse> {
  #calls = 0;
  #finishReason: string | undefined;
  #usage: GenerateContentResponse["usageMetadata"];

  constructor(
    private readonly model: ModelInfo,
    private readonly context: ErrorContext,
  ) {}

  push(response: GenerateContentResponse, out: Chunk[]): boolean {
    if (response.usageMetadata !== undefined) this.#usage = response.usageMetadata;
    const blocked = response.promptFeedback?.blockReason;
    if (blocked !== undefined) {
      const detail = response.promptFeedback?.blockReasonMessage ?? blocked;
      throw new ProviderError({ kind: "bad_request", message: `${this.context.providerName} refused the request: the prompt was blocked (${detail})` });
    }
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      const signature = part.thoughtSignature === undefined ? undefined : tagSignature("gemini", part.thoughtSignature);
      if (part.thought === true) {
        out.push({ type: "reasoning", text: part.text ?? "", ...(signature === undefined ? {} : { signature }) });
        continue;
      }
      if (signature !== undefined) out.push({ type: "reasoning", text: "", signature });
      if (part.functionCall !== undefined) {
        const id = part.functionCall.id ?? `gemini_${randomBytes(8).toString("hex")}`;
        out.push({ type: "tool_call", index: this.#calls, id, name: part.functionCall.name ?? "", argumentsDelta: JSON.stringify(part.functionCall.args ?? {}) });
        this.#calls += 1;
      } else if (typeof part.text === "string" && part.text !== "") {
        out.push({ type: "text", text: part.text });
      }
    }
    if (candidate?.finishReason !== undefined) this.#finishReason = candidate.finishReason;
    return false;
  }

  end(out: Chunk[]): void {
    const finishReason = this.#finishReason;
    if (finishReason === undefined) throw endedEarly(this.context, "a finishReason");
    const usage = this.#usage;
    if (usage !== undefined) {
      const cached = usage.cachedContentTokenCount ?? 0;
      const thoughts = usage.thoughtsTokenCount ?? 0;
      const chunk = usageChunk(this.model, {
        inputTokens: Math.max(0, (usage.promptTokenCount ?? 0) - cached),
        // Thinking is billed as output.
        outputTokens: (usage.candidatesTokenCount ?? 0) + thoughts,
        cacheReadTokens: cached,
      });
      out.push(thoughts > 0 ? { ...chunk, reasoningTokens: thoughts } : chunk);
    }
    const mapped = finishReasons[finishReason];
    const calls = this.#calls;
    out.push({ type: "stop", reason: mapped ?? (finishReason === "STOP" || finishReason === "FINISH_REASON_UNSPECIFIED" ? (calls > 0 ? "tool_use" : "end_turn") : finishReason.toLowerCase()) });
  }
}

/** Gemini responses to chunks, for tests without HTTP. */
export function translateGeminiResponses(events: AsyncIterable<GenerateContentResponse>, model: ModelInfo, context: ErrorContext): AsyncGenerator<Chunk> {
  return translateAll(new GeminiTranslator(model, context), events);
}
