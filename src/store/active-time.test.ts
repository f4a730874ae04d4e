import { describe, expect, it } from "vitest";
import { readLog } from "./log-reader.js";

const ui = (id: string, ts: number) => JSON.stringify({ kind: "ui", message: { type: "say", say: "text", id, ts, text: id, partial: false } });
const status = JSON.stringify({ kind: "status", status: "completed", tokensIn: 0, tokensOut: 0, cost: 0 });

describe("the time a task ran, from its log (--max-time across resumes)", () => {
  it("sums each run's span from its first to its last message; the gaps between runs do not count", () => {
    const log = [ui("a", 1_000), ui("b", 4_000), status, ui("c", 100_000), ui("d", 102_500), status, ""].join("\n");
    expect(readLog(log).activeMs).toBe(3_000 + 2_500);
  });

  it("a run cut short (no status entry, a crash) counts up to its last message; an old message written again does not stretch it", () => {
    const log = [ui("a", 1_000), ui("b", 2_000), status, ui("c", 50_000), ui("a", 1_000), ui("e", 51_000), ""].join("\n");
    expect(readLog(log).activeMs).toBe(1_000 + 1_000);
  });
});
