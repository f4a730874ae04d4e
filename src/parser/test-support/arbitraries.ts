/** fast-check generators of assistant answers that mix real and broken tags. */
import fc from "fast-check";

const tools = ["read_file", "write_to_file", "execute_command", "replace_in_file", "my_tool"];
const parameters = ["path", "content", "diff", "command", "result", "my_param"];

const tagPieces = [...tools.flatMap((name) => [`<${name}>`, `</${name}>`]), ...parameters.flatMap((name) => [`<${name}>`, `</${name}>`])];

const brokenPieces = ["<", "</", ">", "<read_fi", "</conte", "</content", "</path", "</read_file", "<pat", "</write_to_file", "<<", "</>", "<>", "<foo>", "</foo>"];
const spacePieces = ["\n", "\r\n", "\r", " ", "\t", "\u00a0", "\u3000"];
const wordPieces = ["hello", "x", "é", "😀", "中文", "```", "<div>", "&amp;", "a < b", "1>0"];
/** Prose about code: `<` that is no tag, or only the start of one (generics, comparisons, HTML, cut tool names). */
const anglePieces = ["Array<string>", "Map<K, Set<V>>", "i<n", "a <= b", "x << 2", "<span>", "</div>", "<thinking>", "<rea", "<read_fil", "<write_to_fi", "</pat", "</read_file", "<-", "<>", "< ", "</"];

/** One answer: a sequence of pieces, mostly from the pools above, some random. */
export const answerText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...tagPieces) },
      { weight: 2, arbitrary: fc.constantFrom(...brokenPieces) },
      { weight: 2, arbitrary: fc.constantFrom(...spacePieces) },
      { weight: 3, arbitrary: fc.constantFrom(...wordPieces) },
      { weight: 3, arbitrary: fc.constantFrom(...anglePieces) },
      { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: "binary" }) },
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(""));

/** Sorted cut indexes in [0, length], drawn independently of the text. */
export function cutIndexes(length: number, fractions: readonly number[]): number[] {
  return fractions.map((fraction) => Math.floor(fraction * (length + 1))).sort((a, b) => a - b);
}

export const cutFractions: fc.Arbitrary<number[]> = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
  maxLength: 12,
});

export const registeredNames = { toolNames: ["my_tool"], parameterNames: ["my_param"] };

/**
 * A tool call whose `content` or `diff` value holds its own closing tag, often several
 * times, next to line endings, long runs (the one-shot search path) and look-alike tags;
 * then how the answer goes on (the value closed, the tool closed, or cut off).
 */
export const verbatimValueAnswer: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(["write_to_file", "content"], ["replace_in_file", "diff"], ["new_rule", "content"]),
    fc.array(fc.constantFrom("A", " B ", "\n", "\r\n", "\r", "CLOSE", "CLOSE", "</conte", "<pa", "x".repeat(300), "é😀", "TOOLCLOSE"), { maxLength: 14 }),
    fc.constantFrom("", "CLOSE", "CLOSE\n", "CLOSETOOLCLOSE", "CLOSE\nTOOLCLOSE after", "CLOSE<path>p</path>TOOLCLOSE"),
  )
  .map(([[tool, parameter], pieces, ending]) => {
    const fill = (piece: string): string => piece.replaceAll("TOOLCLOSE", `</${tool}>`).replaceAll("CLOSE", `</${parameter}>`);
    return `Intro.\n<${tool}>\n<path>p</path>\n<${parameter}>${pieces.map(fill).join("")}${fill(ending)}`;
  });
