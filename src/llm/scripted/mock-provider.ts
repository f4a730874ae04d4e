import { ProviderError, toProviderError } from "../errors.js";
import { modelInfo, usageChunk } from "../models.js";
import { sleep } from "../retry.js";
import { withStallTimeout } from "../stall.js";
import type { StallTimeouts } from "../stall.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest } from "../types.js";
import type { Scenario, ScenarioTurn } from "./scenario.js";
import { splitText, toolArgumentsText } from "./scenario.js";

export interface MockProviderOptions {
  scenario: Scenario;
  model?: ModelInfo;
  stall?: Partial<StallTimeouts>;
}

/**
 * Plays a scenario in process, without HTTP, yielding the chunks the real providers yield for the
 * same turn (reasoning, signature, text, tool-call deltas, usage with cost, stop). Faults map to the
 * same ProviderError kinds: an HTTP error by its status, a drop as `network`, a stall as `stalled`.
 */
export class MockProvider implements Provider {
  readonly name = "mock";
  readonly model: ModelInfo;
  /** Every request received, in order. */
  readonly requests: ProviderRequest[] = [];
  private readonly scenario: Scenario;
  private readonly stall: Partial<StallTimeouts>;

  constructor(options: MockProviderOptions) {
    this.scenario = options.scenario;
    this.model = options.model ?? modelInfo(options.scenario.model ?? "mock-model");
    this.stall = options.stall ?? {};
  }

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    this.requests.push(request);
    const turn = this.nextTurn(request);
    const index = this.requests.length - 1;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    request.signal.addEventListener("abort", onAbort, { once: true });
    const source = this.play(turn, index, controller.signal);
    const guarded = withStallTimeout(source, { ...this.stall, providerName: "mock", onStall: () => controller.abort() });
    return (async function* () {
      try {
        for await (const chunk of guarded) {
          if (request.signal.aborted) throw toProviderError(new DOMException("aborted", "AbortError"), { providerName: "mock" });
          yield chunk;
        }
      } finally {
        request.signal.removeEventListener("abort", onAbort);
        controller.abort();
      }
    })();
  }

  private readonly routeCounts = new Map<number, number>();
  private mainTurns = 0;

  /** A request matching a route takes that route's next turn; any other the next main turn. */
  private nextTurn(request: ProviderRequest): ScenarioTurn | undefined {
    const routes = this.scenario.routes ?? [];
    if (routes.length > 0) {
      const text = JSON.stringify({ system: request.systemPrompt, messages: request.messages, tools: request.tools });
      const routeIndex = routes.findIndex((route) => text.includes(route.bodyIncludes));
      const route = routes[routeIndex];
      if (route !== undefined) {
        const position = this.routeCounts.get(routeIndex) ?? 0;
        this.routeCounts.set(routeIndex, position + 1);
        return route.turns[position];
      }
    }
    this.mainTurns += 1;
    return this.scenario.turns[this.mainTurns - 1];
  }

  private async *play(turn: ScenarioTurn | undefined, index: number, signal: AbortSignal): AsyncGenerator<Chunk> {
    const context = { providerName: "mock" };
    if (turn === undefined) {
      throw new ProviderError({
        kind: "bad_request",
        status: 400,
        message: `mock refused the request: the scenario has ${this.scenario.turns.length} turns but this is request ${index + 1}; add a turn for it`,
      });
    }
    if (turn.error !== undefined) {
      const fake = Object.assign(new Error(`scripted error ${turn.error.status}`), {
        status: turn.error.status,
        error: turn.error.body,
        headers: new Headers(turn.error.headers ?? {}),
      });
      throw toProviderError(fake, context);
    }
    const chunks = this.chunksOf(turn);
    const delayMs = turn.delayMs ?? this.scenario.delayMs ?? 0;
    for (const [position, chunk] of chunks.entries()) {
      if (position > 0 && delayMs > 0) await sleep(delayMs, signal);
      if (turn.streamError?.afterChunks === position) {
        const { type, message } = turn.streamError;
        throw toProviderError(Object.assign(new Error(message), { error: { type: "error", error: { type, message } } }), context);
      }
      if (turn.dropAfterChunks === position) {
        throw new ProviderError({ kind: "network", message: "mock network error: connection dropped by the scenario" });
      }
      if (turn.stallAfterChunks === position) {
        await new Promise<never>((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(new ProviderError({ kind: "aborted", message: "mock request aborted" })), {
            once: true,
          }),
        );
      }
      yield chunk;
    }
  }

  private chunksOf(turn: ScenarioTurn): Chunk[] {
    const size = turn.chunkSize ?? this.scenario.chunkSize ?? 16;
    const chunks: Chunk[] = [];
    for (const data of turn.redactedReasoning ?? []) chunks.push({ type: "reasoning", text: "", redactedData: data });
    if (turn.reasoning !== undefined) {
      for (const piece of splitText(turn.reasoning, size)) chunks.push({ type: "reasoning", text: piece });
      chunks.push({ type: "reasoning", text: "", signature: turn.reasoningSignature ?? "mock-signature" });
    }
    for (const piece of splitText(turn.text ?? "", size)) chunks.push({ type: "text", text: piece });
    (turn.toolCalls ?? []).forEach((call, index) => {
      chunks.push({ type: "tool_call", index, id: call.id ?? `call_mock_${index}`, name: call.name, argumentsDelta: "" });
      for (const piece of splitText(toolArgumentsText(call), size)) {
        chunks.push({ type: "tool_call", index, argumentsDelta: piece });
      }
    });
    chunks.push(usageChunk(this.model, turn.usage ?? { inputTokens: 10, outputTokens: 10 }));
    chunks.push({ type: "stop", reason: turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn") });
    return chunks;
  }
}
