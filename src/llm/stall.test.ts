import { describe, expect, it } from "vitest";
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
