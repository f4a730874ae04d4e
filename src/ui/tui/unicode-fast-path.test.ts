import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { graphemeSegments, withFastPath } from "./unicode-fast-path.js";
import type { StringWidth } from "./unicode-fast-path.js";

/** wrap-ansi brings its own, older string-width; the bundle puts the fast path in front of both. */
async function wrapAnsisStringWidth(): Promise<StringWidth> {
  const wrapAnsi = dirname(fileURLToPath(import.meta.resolve("wrap-ansi")));
  const nested = join(wrapAnsi, "node_modules", "string-width", "index.js");
  const module = (await import(existsSync(nested) ? pathToFileURL(nested).href : "string-width")) as { default: StringWidth };
  return module.default;
}

const interesting = [
  "›",
  "─",
  "│",
  "╭",
  "█",
  "…",
  "•",
  "●",
  "✓",
  "→",
  "↔",
  "é",
  "ß",
  "Ω",
  "ж",
  "‼",
  "©",
  "®",
  "⁉",
  "▶",
  "◽",
  "⚠",
  "⌚",
  "️",
  "‍",
  "́",
  "­",
  "​",
  "中",
  "한",
  "ᄀ",
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "1️⃣",
  "\t",
  "\u0007",
  "\u009b",
  "\u001b[31m",
  "\u001b[0m",
  "\u001b]8;;https://example.com\u0007",
  "\u001b]8;;\u0007",
  "\u001b[?25l",
  "\r\n",
  "\r",
  "\n",
  "\u0000",
];
const pieces = fc.oneof(
  fc.constantFrom(...interesting),
  fc.string({ unit: "grapheme-ascii", maxLength: 6 }),
  fc.integer({ min: 0x20, max: 0x2fff }).map((code) => String.fromCharCode(code)),
);
const texts = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(""));

describe("the string-width fast path", () => {
  it("answers what each string-width package answers, for any text and options", async () => {
    const packages: StringWidth[] = [stringWidth, await wrapAnsisStringWidth()];
    for (const real of packages) {
      const fast = withFastPath(() => real);
      fc.assert(
        fc.property(texts, fc.boolean(), fc.boolean(), (text, ambiguousIsNarrow, countAnsiEscapeCodes) => {
          const options = { ambiguousIsNarrow, countAnsiEscapeCodes };
          expect(fast(text, options)).toBe(real(text, options));
          expect(fast(text)).toBe(real(text));
        }),
        { numRuns: 3000 },
      );
    }
  });

  it("answers what each package answers for every single character up to U+2FFF", async () => {
    const packages: StringWidth[] = [stringWidth, await wrapAnsisStringWidth()];
    for (const real of packages) {
      const fast = withFastPath(() => real);
      for (let code = 0x20; code < 0x3000; code += 1) {
        const text = String.fromCharCode(code);
        for (const ambiguousIsNarrow of [true, false]) expect([code.toString(16), fast(text, { ambiguousIsNarrow })]).toEqual([code.toString(16), real(text, { ambiguousIsNarrow })]);
      }
    }
  });

  it("loads the package only for text it cannot measure itself", () => {
    let loads = 0;
    const fast = withFastPath(() => {
      loads += 1;
      return stringWidth;
    });
    expect(fast("› What should cairn do? ─── é ж →")).toBe(33);
    expect(fast("\u001b[1mbold\u001b[22m")).toBe(4);
    expect(fast("\u001b[36m⠸\u001b[39m Waiting for the model… 1s")).toBe(27);
    // The UI's own marks: a task's end, a tool card, a running command, a checklist.
    expect(fast("✓ Task completed · ● Edit · ◷ Running · ○ ✗ ⟳ ◆ ▸")).toBe(49);
    expect(loads).toBe(0);
    expect(fast("中文 😀")).toBe(7);
    expect(fast("中")).toBe(2);
    expect(loads).toBe(1);
  });

  it("cuts text into the graphemes Intl.Segmenter finds, for any text", () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    fc.assert(
      fc.property(texts, (text) => {
        const fast = graphemeSegments(text);
        const icu = segmenter.segment(text);
        expect([...fast]).toEqual([...icu]);
        for (let index = -1; index <= text.length; index += 1) expect(fast.containing(index)).toEqual(icu.containing(index));
        expect(fast.containing()).toEqual(icu.containing());
      }),
      { numRuns: 3000 },
    );
  });
});
