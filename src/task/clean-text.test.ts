import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IncrementalTextCleaner, cleanTextForDisplay } from "./clean-text.js";

/** The one-pass cleaning as it was before issue 18, kept as the reference. */
function reference(raw: string, partial: boolean, knownTags: ReadonlySet<string>): string {
  let text = raw.replace(/<(?:thinking|think)>\s?/g, "").replace(/\s?<\/(?:thinking|think)>/g, "");
  if (partial) {
    const lastOpen = text.lastIndexOf("<");
    if (lastOpen !== -1) {
      const fragment = text.slice(lastOpen + 1).replace(/^\//, "");
      if (!/[\s>]/.test(fragment) && [...knownTags, "thinking", "think"].some((tag) => tag.startsWith(fragment))) {
        text = text.slice(0, lastOpen);
      }
    }
  }
  return text.trimEnd();
}

const knownTags = new Set(["read_file", "path", "list_code_definition_names", "attempt_completion"]);
const pieces = fc.constantFrom("<thinking>", "</thinking>", "<think>", "</think>", "<", "</", "<read_", "<pa", " ", "\n", "a", "word ", "x<y", ">", "<path>", "</path>");
const text = fc.array(fc.oneof(pieces, fc.string({ maxLength: 40 })), { maxLength: 60 }).map((parts) => parts.join(""));

describe("cleanTextForDisplay cleans only the new tail of growing text (SPEC P12)", () => {
  it("P12: one pass gives what the reference gives", () => {
    fc.assert(
      fc.property(text, fc.boolean(), (raw, partial) => {
        expect(cleanTextForDisplay(raw, partial, knownTags)).toBe(reference(raw, partial, knownTags));
      }),
      { numRuns: 2000 },
    );
  });

  it("P12: the incremental cleaner shows, after every piece, what cleaning the whole text would show", () => {
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 40 }), (raw, steps) => {
        const cleaner = new IncrementalTextCleaner(knownTags);
        let end = 0;
        for (const step of steps) {
          end = Math.min(raw.length, end + step);
          const seen = raw.slice(0, end);
          expect(cleaner.clean(seen, true)).toBe(reference(seen, true, knownTags));
        }
        expect(cleaner.clean(raw, false)).toBe(reference(raw, false, knownTags));
      }),
      { numRuns: 1500 },
    );
  });

  it("starts over when the text no longer extends what it saw (a block trimmed when it settled)", () => {
    const cleaner = new IncrementalTextCleaner(knownTags);
    const long = `   ${"plain words ".repeat(20)}<thinking>hm</thinking> and more ${"x".repeat(80)}`;
    expect(cleaner.clean(long, true)).toBe(reference(long, true, knownTags));
    const trimmed = long.trim();
    expect(cleaner.clean(trimmed, true)).toBe(reference(trimmed, true, knownTags));
  });

  it("a long answer keeps its cleaned head: tags far back are cleaned once and stay cleaned", () => {
    const cleaner = new IncrementalTextCleaner(knownTags);
    let raw = "<thinking>plan</thinking> ";
    for (let round = 0; round < 200; round += 1) {
      raw += `line ${round} with a < sign and <think>aside</think> words\n`;
      expect(cleaner.clean(raw, true)).toBe(reference(raw, true, knownTags));
    }
  });
});
