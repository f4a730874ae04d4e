import { describe, expect, it } from "vitest";
import { useScriptedServer } from "./test-support/scripted-server-fixture.js";
import { AnthropicProvider } from "./anthropic.js";
import type { ChunkIterator } from "./chunk-stream.js";
import { forEachChunk } from "./chunk-stream.js";
import { guardedStream } from "./guarded-stream.js";
import type { SdkStream, StreamTranslator } from "./guarded-stream.js";
import { modelInfo } from "./models.js";
import { OpenAiProvider } from "./openai.js";
import { withStreamHooks } from "./stream-hooks.js";
import type { Chunk, Provider } from "./types.js";

const scripted = useScriptedServer();

const turn = { reasoning: "think", reasoningSignature: "signed", text: "Hello <b>world</b>, ünïcödé 😀 ".repeat(20), chunkSize: 3, toolCalls: [{ id: "call_fixed", name: "read_file", arguments: { path: "a.txt" } }] };

async function providers(): Promise<Provider[]> {
  const server = await scripted.start({ turns: [turn, turn, turn, turn, turn, turn] });
  return [
    new AnthropicProvider({ apiKey: "k", model: modelInfo("claude-sonnet-5-5"), baseUrl: server.url, thinkingBudgetTokens: 2048 }),
    new OpenAiProvider({ apiKey: "k", model: modelInfo("gpt-5.4"), baseUrl: `${server.url}/v1` }),
  ];
}

function open(provider: Provider): ChunkIterator {
  return provider.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: "go" }] }], signal: new AbortController().signal })[Symbol.asyncIterator]();
}

async function pulled(iterator: ChunkIterator): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) chunks.push(next.value);
  return chunks;
}

describe("guardedStream push mode waits once per SDK event", () => {
  it("hands over the same chunks, in the same order, as next() does, also through a hooked wrapper", async () => {
    for (const provider of await providers()) {
      const expected = await pulled(open(provider));
      expect(expected.some((chunk) => chunk.type === "tool_call")).toBe(true);
      const pushed: Chunk[] = [];
      const iterator = open(provider);
      expect(iterator.forEach).toBeTypeOf("function");
      expect(await forEachChunk(iterator, (chunk) => (pushed.push(chunk), true))).toBe(true);
      expect(pushed).toEqual(expected);

      const seen: Chunk[] = [];
      const hooked = withStreamHooks(() => provider.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: "go" }] }], signal: new AbortController().signal }), {
        chunk: (chunk) => void seen.push(chunk),
      })[Symbol.asyncIterator]() as ChunkIterator;
      const throughHooks: Chunk[] = [];
      expect(await forEachChunk(hooked, (chunk) => (throughHooks.push(chunk), true))).toBe(true);
      expect(throughHooks).toEqual(expected);
      expect(seen).toEqual(expected);
    }
  });

  it("stops when the reader says so, and the stream is left (a later next() is done)", async () => {
    const [provider] = await providers();
    const iterator = open(provider!);
    const taken: Chunk[] = [];
    expect(await iterator.forEach!((chunk) => (taken.push(chunk), taken.length < 5))).toBe(false);
    expect(taken).toHaveLength(5);
    expect((await iterator.next()).done).toBe(true);
  });
});

describe("guardedStream stall detection (ticks, no clock read per event)", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** An SDK-like stream whose events come after the given gaps; aborting its signal fails the pending read. */
  function sdkStream(gaps: number[], signal: AbortSignal): SdkStream<string> {
    const controller = new AbortController();
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new Error("request aborted"));
      signal.addEventListener("abort", fail);
      controller.signal.addEventListener("abort", fail);
    });
    aborted.catch(() => undefined);
    return {
      controller,
      async *[Symbol.asyncIterator]() {
        for (const [index, gap] of gaps.entries()) {
          await Promise.race([sleep(gap), aborted]);
          yield `event ${index} `;
        }
      },
    };
  }
  const translator = (): StreamTranslator<string> => ({ push: (event, out) => (out.push({ type: "text", text: event }), false), end: () => undefined });
  const stream = (gaps: number[]) =>
    guardedStream({ signal: new AbortController().signal, stall: { firstChunkMs: 100, betweenChunksMs: 100 }, context: { providerName: "test" }, translator, open: async (signal) => sdkStream(gaps, signal) });

  it("does not stall while every gap is under the limit, however many ticks pass", async () => {
    const chunks: Chunk[] = [];
    await forEachChunk(stream(Array.from({ length: 10 }, () => 70))[Symbol.asyncIterator](), (chunk) => (chunks.push(chunk), true));
    expect(chunks).toHaveLength(10);
  });

  it("does not count the time the reader spends between reads", async () => {
    const iterator = stream([10, 10, 10])[Symbol.asyncIterator]();
    let count = 0;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      count += 1;
      await sleep(250);
    }
    expect(count).toBe(3);
  });

  it("stalls after the limit (and at most a quarter more) of silence, naming how many events came", async () => {
    let last = 0;
    const started = performance.now();
    const failure = await forEachChunk(stream([10, 10, 1_000])[Symbol.asyncIterator](), () => ((last = performance.now()), true)).catch((error: unknown) => error);
    const silence = performance.now() - last;
    expect(failure).toMatchObject({ kind: "stalled", message: "test stream stalled: nothing received for 100 ms after 2 chunks" });
    expect(silence).toBeGreaterThanOrEqual(99);
    expect(silence).toBeLessThan(600); // far below the 1 s gap, with room for a loaded machine
    expect(performance.now() - started).toBeLessThan(900);
  });
});

describe("guardedStream push mode shares the thread", () => {
  it("lets the event loop run (a key, a timer) while it reads a long burst of events already received", async () => {
    const total = 200_000;
    const sdk: SdkStream<string> = {
      controller: new AbortController(),
      // Every event is there at once, as after a large network read: no wait for I/O in between.
      async *[Symbol.asyncIterator]() {
        for (let index = 0; index < total; index += 1) yield "x";
      },
    };
    const translator = (): StreamTranslator<string> => ({ push: (event, out) => (out.push({ type: "text", text: event }), false), end: () => undefined });
    const iterator = guardedStream({ signal: new AbortController().signal, context: { providerName: "test" }, translator, open: async () => sdk })[Symbol.asyncIterator]();
    let read = 0;
    let readWhenTheLoopRan: number | undefined;
    setImmediate(() => (readWhenTheLoopRan = read));
    expect(await forEachChunk(iterator, () => ((read += 1), true))).toBe(true);
    expect(read).toBe(total);
    expect(readWhenTheLoopRan).toBeGreaterThan(0);
    expect(readWhenTheLoopRan).toBeLessThan(total);
  });
});
