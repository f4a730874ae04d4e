/** The answers bench/parser.bench.ts parses, each built to a given size. */

/** A realistic answer: prose, commands, file reads, whole files with HTML and code, diffs. */
export function mixedAnswer(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let round = 0; length < size; round += 1) {
    const file = Array.from({ length: 40 }, (_, line) => `  <li class="item-${line}">${line} < ${round} && x > 0 — ünïcödé 😀</li>`).join("\n");
    const part =
      `I'll check the project layout first (step ${round}).\n\n` +
      `<list_files>\n<path>src/${round}</path>\n<recursive>true</recursive>\n</list_files>\n` +
      `Now reading a file with <b>markup</b> in prose.\n` +
      `<read_file>\n<path>src/module-${round}.ts</path>\n</read_file>\n` +
      `<write_to_file>\n<path>web/page-${round}.html</path>\n<content>\n<ul>\n${file}\n</ul>\n</content>\n</write_to_file>\n` +
      `<replace_in_file>\n<path>src/a-${round}.ts</path>\n<diff>\n------- SEARCH\nconst a = ${round};\n=======\nconst a = ${round + 1};\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n` +
      `<execute_command>\n<command>npm test -- --grep "case ${round}"</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, size);
}

/** One write_to_file whose content is `size` characters of source text. */
export function singleValueAnswer(size: number): string {
  const line = 'export const value = items.filter((item) => item.size < limit && item.name !== "</div>");\n';
  const body = line.repeat(Math.ceil(size / line.length)).slice(0, size);
  return `Writing the file.\n<write_to_file>\n<path>big.ts</path>\n<content>\n${body}\n</content>\n</write_to_file>`;
}

/** Sentences of an answer that talks about code; most hold a `<` that is no tool tag. */
const PROSE = [
  "The parser returns Array<string> when the index is < the length of the input.",
  "I'll keep the loop as it is: for (let i = 0; i<n; i += 1) reads each item once.",
  "A Map<string, Set<number>> groups the ids by name, and a < b && b <= c holds for every pair.",
  'The template renders <div class="card"> around each item and a <span> for its title.',
  "Note that <rea is only the start of a word here, as are <read_fil and <write_to_fi, not tool calls.",
  "Generic code like Promise<Result<T, E>> or Record<string, unknown> reads better with a type alias.",
  "In C++ the type is std::vector<std::vector<int>>, and x << 2 shifts left.",
  "Some models write <thinking> tags; they stay in the text, as does a closing </thinking> tag.",
  "Closing tags outside a tool, like </path> or </read_file>, are plain text too.",
  "The comparison `count < limit` fails when limit is 0, so the function returns early.",
  "This sentence has no angle bracket at all, only plain words about the change.",
  "A lone < or </ at the end of a line, or an arrow <- in a comment, is not a tag.",
  "Use <T extends keyof U> to constrain the key, and <> for an empty fragment in JSX.",
  "The HTML list is <ul><li>one</li><li>two</li></ul>, and &lt; is the escaped form.",
  "When a<b and c>d the branch is taken; when a <= b it is not.",
];

/** About 2 KB of prose between two tool calls. */
const SENTENCES_PER_CALL = 24;

/** Tool calls between the paragraphs; their values hold `<` as well. */
function toolCall(round: number): string {
  switch (round % 4) {
    case 0:
      return `<read_file>\n<path>src/generic-${round}.ts</path>\n</read_file>\n`;
    case 1:
      return `<execute_command>\n<command>test ${round} -lt 3 && sort < in.txt > out.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n`;
    case 2:
      return `<write_to_file>\n<path>src/list-${round}.ts</path>\n<content>\nconst m = new Map<string, Array<number>>();\nif (a < b) m.set("<li>", [${round}]);\n</content>\n</write_to_file>\n`;
    default:
      return `<replace_in_file>\n<path>src/a-${round}.ts</path>\n<diff>\n------- SEARCH\nif (i <= n) {\n=======\nif (i < n) {\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n`;
  }
}

/**
 * Mostly prose that talks about code, with many `<` that are not tool tags:
 * generics (`Array<string>`), comparisons (`a < b`, `i<n`, `<=`, `<<`), HTML
 * (`<div>`, `</span>`), tags that are not tools (`<thinking>`), beginnings of
 * tool names that go on otherwise (`<rea`, `<read_fil`), closing tags outside
 * a tool, a lone `<` or `</`; a tool call after every paragraph of about 2 KB,
 * its values holding `<` too. A word whose length changes from sentence to
 * sentence moves the `<` across the 16-character chunk boundaries, so many
 * fall right at a chunk's end.
 */
export function angleBracketProseAnswer(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let round = 0; length < size; round += 1) {
    const sentences: string[] = [];
    for (let index = 0; index < SENTENCES_PER_CALL; index += 1) {
      const sentence = PROSE[(round * 4 + index * 7) % PROSE.length] ?? "";
      sentences.push(`${"so".repeat((round + index) % 9)} ${sentence}`);
    }
    const part = `${sentences.join(" ")}\n\n${toolCall(round)}`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, size);
}
