import { describe, expect, it } from "vitest";
import { describeMalformedDiff, parseSearchReplace } from "./parse-blocks.js";

describe("parseSearchReplace", () => {
  it("reads a complete block as whole lines", () => {
    expect(parseSearchReplace("------- SEARCH\na\nb\n=======\nc\n+++++++ REPLACE\n")).toEqual({ blocks: [{ search: "a\nb\n", replace: "c\n" }] });
  });

  it("reports a block still streaming in its SEARCH part", () => {
    const parsed = parseSearchReplace("------- SEARCH\na\nb");
    expect(parsed.blocks).toEqual([]);
    expect(parsed.incomplete).toEqual({ search: "a\nb\n", replace: "", stage: "search" });
    expect(describeMalformedDiff(parsed)).toContain("no ======= separator");
  });

  it("reports a block missing its REPLACE marker", () => {
    const parsed = parseSearchReplace("------- SEARCH\na\n=======\nb\n");
    expect(parsed.incomplete?.stage).toBe("replace");
    expect(describeMalformedDiff(parsed)).toContain("closing +++++++ REPLACE");
  });

  it("explains the format when there is no block at all", () => {
    expect(describeMalformedDiff(parseSearchReplace("just replace foo with bar"))).toContain("------- SEARCH");
  });

  it("keeps complete blocks when a later one is still streaming", () => {
    const parsed = parseSearchReplace("------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n------- SEARCH\nb\n=");
    expect(parsed.blocks).toHaveLength(1);
    expect(parsed.incomplete?.stage).toBe("search");
  });
});
