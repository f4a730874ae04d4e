import { ProviderError } from "../../llm/errors.js";
import { modelInfo } from "../../llm/models.js";
import type { Chunk, ModelInfo, Provider, ProviderRequest } from "../../llm/types.js";

/** One step of a scripted answer: a chunk, a wait for the test, or a failure. */
export type Step = Chunk | { type: "gate"; wait: () => Promise<void> } | { type: "fail"; error: ProviderError };

/**
 * An in-process provider for race tests of the loop: each request plays one
 * list of steps, can be held at gates, and counts what it has sent. Aborting the
 * request's signal ends the stream with an `aborted` error at once.
 */
export class GatedProvider implements Provider {
  readonly name = "gated";
  readonly model: ModelInfo = modelInfo("claude-sonnet-5-5");
  readonly requests: ProviderRequest[] = [];
  /** Chunks sent so far, over all requests. */
  sent = 0;
  /** Set when a request's stream was closed early (return() called or aborted). */
  closedEarly = 0;
  /** Streams open now, and the most ever open at once (SPEC T1). */
  inFlight = 0;
  maxInFlight = 0;

  constructor(private readonly turns: Step[][]) {}

  createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
    const steps = this.turns[this.requests.length] ?? [{ type: "fail", error: new ProviderError({ kind: "bad_request", message: "no more scripted turns" }) }];
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the iterator object below has its own `this`
    const provider = this;
    return {
      [Symbol.asyncIterator]() {
        let index = 0;
        let closed = false;
        provider.inFlight += 1;
        provider.maxInFlight = Math.max(provider.maxInFlight, provider.inFlight);
        const close = (): void => {
          if (!closed) provider.inFlight -= 1;
          closed = true;
        };
        const abortError = (): ProviderError => new ProviderError({ kind: "aborted", message: "request aborted" });
        return {
          async next(): Promise<IteratorResult<Chunk>> {
            while (true) {
              if (request.signal.aborted) {
                if (!closed) provider.closedEarly += 1;
                close();
                throw abortError();
              }
              const step = steps[index];
              index += 1;
              if (step === undefined) {
                close();
                return { done: true, value: undefined };
              }
              if (step.type === "gate") {
                await Promise.race([step.wait(), new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }))]);
                continue;
              }
              if (step.type === "fail") {
                close();
                throw step.error;
              }
              await new Promise<void>((resolve) => setImmediate(resolve));
              if (request.signal.aborted) continue;
              provider.sent += 1;
              return { done: false, value: step };
            }
          },
          async return(): Promise<IteratorResult<Chunk>> {
            if (!closed && index < steps.length) provider.closedEarly += 1;
            close();
            return { done: true, value: undefined };
          },
        };
      },
    };
  }
}

export function text(value: string): Chunk {
  return { type: "text", text: value };
}

/** Splits a string into text chunks of `size` characters. */
export function textChunks(value: string, size: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let index = 0; index < value.length; index += size) chunks.push(text(value.slice(index, index + size)));
  return chunks;
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
