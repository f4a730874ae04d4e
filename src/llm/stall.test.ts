import { describe, expect, it } from "vitest";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { withStallTimeout } from "./stall.js";

async function* slowAfter(items: string[], hang: Promise<never>) {
  for (const item of items) yield item;
  await hang;
}

describe("withStallTimeout", () => {
  it("fails as stalled when nothing arrives before the first chunk, and calls onStall", async () => {
    let stalled = 0;
    const seen: string[] = [];
    const stream = withStallTimeout(slowAfter([], new Promise<never>(() => undefined)), {
      firstChunkMs: 5,
      onStall: () => (stalled += 1),
    });
    await expect(
      (async () => {
        for await (const item of stream) seen.push(item);
      })(),
    ).rejects.toMatchObject({ kind: "stalled", message: expect.stringContaining("before the first chunk") });
    expect(stalled).toBe(1);
  });

  it("fails as stalled when the stream goes silent between chunks", async () => {
    const seen: string[] = [];
    const stream = withStallTimeout(slowAfter(["a", "b"], new Promise<never>(() => undefined)), {
      firstChunkMs: 1000,
      betweenChunksMs: 5,
    });
    await expect(
      (async () => {
        for await (const item of stream) seen.push(item);
      })(),
    ).rejects.toMatchObject({ kind: "stalled", message: expect.stringContaining("after 2 chunks") });
    expect(seen).toEqual(["a", "b"]);
  });

  it("passes a healthy stream through unchanged", async () => {
    const seen: string[] = [];
    for await (const item of withStallTimeout(slowAfter(["a", "b", "c"], Promise.resolve() as Promise<never>))) seen.push(item);
    expect(seen).toEqual(["a", "b", "c"]);
  });

  it("does not count the time the consumer spends between items", async () => {
    const seen: string[] = [];
    for await (const item of withStallTimeout(slowAfter(["a", "b", "c"], Promise.resolve() as Promise<never>), { firstChunkMs: 20, betweenChunksMs: 20 })) {
      seen.push(item);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(seen).toEqual(["a", "b", "c"]);
  });
});

/** The collector, reachable from a test: V8 exposes `gc` to new contexts once the flag is set. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

describe("withStallTimeout keeps nothing reachable past a wait (one rejector per wait)", () => {
  it("keeps no item reachable after the consumer has dropped it, while the stream is still open", async () => {
    const gc = collector();
    const total = 2_000;
    const references: WeakRef<object>[] = [];
    let release: () => void = () => undefined;
    const hang = new Promise<void>((resolve) => (release = resolve));
    async function* items() {
      for (let index = 0; index < total; index += 1) yield { index, payload: "x".repeat(64) + String(index) };
      await hang;
    }
    const stream = withStallTimeout(items(), { firstChunkMs: 60_000, betweenChunksMs: 60_000 });
    for (let index = 0; index < total; index += 1) {
      const next = await stream.next();
      if (next.done === true) throw new Error("the stream ended early");
      references.push(new WeakRef(next.value));
    }
    // WeakRef targets stay alive until the current job ends: collect from a later macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const alive = references.filter((reference) => reference.deref() !== undefined).length;
    release();
    await stream.return(undefined);
    // The newest item or two may still be held by the generator's own state; thousands would be a leak.
    expect(alive).toBeLessThan(10);
  });
});
