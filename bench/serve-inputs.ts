/** What the serve and attach benches give cairn: a 1 MiB markdown answer, and the flags that point it at the scripted model. */
import type { ScriptedServer } from "../src/llm/scripted/server.js";

const mebibyte = 1024 * 1024;

/** About 1 MiB of markdown (prose lines, a code block every 40 lines), then attempt_completion. */
export function markdownAnswer(): string {
  const lines: string[] = [];
  for (let index = 0, length = 0; length < mebibyte; index += 1) {
    const line = index % 40 === 0 ? "```ts\nconst value = compute(input);\n```\n" : `Line ${index}: the quick brown fox jumps over the lazy dog, then checks the **build** again.\n`;
    lines.push(line);
    length += line.length;
  }
  return `${lines.join("")}\n<attempt_completion>\n<result>\ndone\n</result>\n</attempt_completion>`;
}

/** The scripted model as Anthropic with XML tools, without checkpoints (the UI's or the server's cost is the question, not git's). */
export function scriptedModelArgs(server: ScriptedServer): string[] {
  return ["--provider", "anthropic", "--base-url", server.url, "--api-key", "bench-key-not-secret", "--model", "claude-sonnet-5-5", "--tool-protocol", "xml", "--no-checkpoints"];
}
