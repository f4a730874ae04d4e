/**
 * The terminal UI benchmark's answer: 1 MiB of markdown (lists, bold, inline
 * code, a fenced code block every 40 lines, a few `<` and tables of prose) in
 * 16-character deltas, then attempt_completion as XML in the text.
 */
import type { Scenario, ScenarioTurn } from "../../src/llm/scripted/scenario.js";

export const markdownCharacters = 1024 * 1024;
export const markdownChunkSize = 16;
export const markdownMatch = "bench-tui-markdown";

export function markdownText(characters = markdownCharacters): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < characters; index += 1) {
    const place = index % 40;
    const line =
      place === 0
        ? "```ts"
        : place === 20
          ? "```"
          : place > 0 && place < 20
            ? `  const value${index} = add(${index}, ${index + 1}); // a < b && b > a`
            : place === 21
              ? `## Step ${index}: why the test fails`
              : `- step ${index}: the **answer** explains the fix to \`add\` and why the _test_ fails, see [the docs](https://example.com/${index})`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n").slice(0, characters);
}

export function markdownAnswer(): ScenarioTurn {
  return {
    text: `${markdownText()}\n\n<attempt_completion>\n<result>done</result>\n</attempt_completion>`,
    chunkSize: markdownChunkSize,
    usage: { inputTokens: 1000, outputTokens: 250_000 },
  };
}

/** `count` copies of the answer (one turn object, shared), for requests whose task contains markdownMatch. */
export function markdownScenario(count: number): Scenario {
  const turn = markdownAnswer();
  return { turns: [], conversations: [{ match: markdownMatch, turns: Array.from({ length: count }, () => turn) }] };
}
