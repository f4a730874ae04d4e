import { applyPatch } from "diff";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./unified-diff.js";

const lines = (count: number, changed?: number): string => Array.from({ length: count }, (_, index) => (index + 1 === changed ? `CHANGED ${index + 1}` : `line ${index + 1}`)).join("\n");

describe("unifiedDiff", () => {
  const cases = [
    { name: "a change in the middle, both sides end with a newline", before: `${lines(20)}\n`, after: `${lines(20, 10)}\n`, marker: false },
    { name: "a change near the end, both sides end with a newline", before: `${lines(20)}\n`, after: `${lines(20, 19)}\n`, marker: false },
    { name: "a change in the middle, no final newline on either side", before: lines(20), after: lines(20, 10), marker: false },
    { name: "the last line changed, no final newline on either side", before: lines(20), after: lines(20, 20), marker: true },
    { name: "the final newline removed", before: `${lines(20)}\n`, after: lines(20), marker: true },
    { name: "the final newline added", before: lines(20), after: `${lines(20)}\n`, marker: true },
  ];
  for (const { name, before, after, marker } of cases) {
    it(`${name}: the end-of-file marker ${marker ? "appears" : "does not appear"}, and the patch applies`, () => {
      const patch = unifiedDiff({ path: "f.txt", before, after });
      expect(patch.includes("\\ No newline at end of file")).toBe(marker);
      expect(applyPatch(before, patch)).toBe(after);
    });
  }
});
