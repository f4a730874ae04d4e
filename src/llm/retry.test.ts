import { describe, expect, it } from "vitest";
import { ProviderError } from "./errors.js";
import type { ProviderErrorKind } from "./types.js";
import { defaultRetrySchedule, retryDelay, sleep } from "./retry.js";

const error = (kind: ProviderErrorKind, retryAfterMs?: number) => new ProviderError({ kind, message: kind, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

describe("retryDelay (T11)", () => {
  const noJitter = { ...defaultRetrySchedule, random: () => 0.5 };

  it("T11: backs off 2, 4, 8 s then gives up", () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelay(attempt, error("server"), noJitter))).toEqual([2000, 4000, 8000, undefined]);
  });

  it("T11: jitters within 20 percent", () => {
    expect(retryDelay(0, error("overloaded"), { ...defaultRetrySchedule, random: () => 0 })).toBe(1600);
    expect(retryDelay(0, error("overloaded"), { ...defaultRetrySchedule, random: () => 1 })).toBe(2400);
  });

  it.each(["auth", "bad_request", "context_window", "aborted"] as const)("T11: never retries %s", (kind) => {
    expect(retryDelay(0, error(kind), noJitter)).toBeUndefined();
  });

  it("T11: a longer retry-after wins, a shorter one does not", () => {
    expect(retryDelay(0, error("rate_limit", 5000), noJitter)).toBe(5000);
    expect(retryDelay(0, error("rate_limit", 100), noJitter)).toBe(2000);
    expect(retryDelay(0, error("rate_limit", 3_600_000), noJitter)).toBeUndefined();
  });
});

describe("sleep", () => {
  it("rejects with an aborted ProviderError when the signal aborts", async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: "aborted" });
  });

  it("resolves after the delay", async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});
