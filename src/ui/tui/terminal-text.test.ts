import { describe, expect, it } from "vitest";
import { cleanLine, countLines, formatCost, formatTokens, lastLines, tailOfLine } from "./terminal-text.js";

describe("terminal text", () => {
  it("keeps what a terminal shows after a carriage return", () => {
    expect(cleanLine("progress 10%\rprogress 100%")).toBe("progress 100%");
    expect(cleanLine("windows line\r")).toBe("windows line");
  });

  it("takes the last lines of a long output without the trailing newline", () => {
    expect(lastLines("a\nb\nc\nd\n", 2)).toEqual({ lines: ["c", "d"], hidden: 2 });
    expect(lastLines("only", 3)).toEqual({ lines: ["only"], hidden: 0 });
    expect(lastLines("", 3)).toEqual({ lines: [], hidden: 0 });
  });

  it("counts lines and keeps the end of a long line", () => {
    expect(countLines("a\nb\n")).toBe(2);
    expect(countLines("a\nb\nc")).toBe(3);
    expect(tailOfLine("abcdefghij", 5)).toBe("…ghij");
  });

  it("formats token counts and cost", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_345)).toBe("12k");
    expect(formatTokens(1_500)).toBe("1.5k");
    expect(formatCost(0.01234)).toBe("$0.0123");
    expect(formatCost(12.5)).toBe("$12.50");
  });
});
