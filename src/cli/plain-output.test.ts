/**
 * What `cairn run` prints without --json, through the real CLI (bin/cairn →
 * dist/: `npm run build` first) against the scripted LLM server: stdout
 * carries exactly the answer's text, status lines go to stderr and never
 * land inside it, and subagents' lines say whose they are.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { startCli } from "./test-support/cli-harness.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

/** About 1 MiB of answer in many lines, with nothing a cleaner would change. */
function longAnswer(): string {
  const lines: string[] = [];
  for (let index = 0, length = 0; length < 1024 * 1024; index++) {
    const line = `Line ${index} of the answer: ${"the quick brown fox jumps over the lazy dog ".repeat(1 + (index % 3)).trim()}.`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

const twice = <T>(items: T[]): T[] => [...items, ...items];
const complete = (result: string): string => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;

describe("plain output: stdout is the answer", () => {
  it("a 1 MiB streamed answer while the first checkpoint is made: stdout is byte for byte the answer, the checkpoint line is on stderr", { timeout: 180_000 }, async () => {
    // A workspace big enough that its first checkpoint (started with the task) is made while the answer streams (about 10 s),
    // not before its first bytes: 800 files of 18 KB (200 of them let a loaded CI machine's checkpoint end first).
    for (let index = 0; index < 800; index++) await writeFile(join(cli.sandbox.workspace, `file-${index}.txt`), `file ${index} ${"x".repeat(60)}\n`.repeat(300));
    const answer = longAnswer();
    const turn = { text: `${answer}\n${complete("The end.")}`, chunkSize: 4096, delayMs: 40 };
    const server = await cli.startServer({ turns: [turn, turn, turn] });
    const expected = `${answer}\nThe end.\n`;
    // The checkpoint's timing is the machine's: a run where it came before or after the stream proves nothing and is run again.
    for (let attempt = 1; ; attempt++) {
      const run = startCli(["run", ...anthropicArgs(server), "write a long answer"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
      let answerBytesAtCheckpoint: number | undefined;
      const notice = (): void => {
        if (answerBytesAtCheckpoint !== undefined) return;
        const inAnswer = run.stdout.indexOf("· checkpoint");
        if (inAnswer !== -1) answerBytesAtCheckpoint = inAnswer;
        else if (run.stderr.includes("· checkpoint")) answerBytesAtCheckpoint = run.stdout.length;
      };
      run.child.stdout?.on("data", notice);
      run.child.stderr?.on("data", notice);
      expect(await run.exit, run.stderr).toBe(0);
      const midStream = answerBytesAtCheckpoint !== undefined && answerBytesAtCheckpoint > 0 && answerBytesAtCheckpoint < answer.length;
      if (!midStream && attempt < 3) continue;
      expect(midStream, `the checkpoint came at ${String(answerBytesAtCheckpoint)} of ${answer.length} bytes of answer`).toBe(true);
      expect(run.stdout.length).toBe(expected.length);
      expect(run.stdout === expected).toBe(true);
      expect(run.stderr).toMatch(/^task \S+$/m);
      expect(run.stderr).toMatch(/^· checkpoint [0-9a-f]{8}$/m);
      expect(run.stderr).toMatch(/^✓ Task completed$/m);
      expect(run.stderr.trimEnd().split("\n").at(-1)).toMatch(/^completed · 1 turn · /);
      return;
    }
  });

  it("answers streamed in small chunks around a write, with checkpoints and a retry meanwhile: stdout is exactly the answers, contiguous", { timeout: 120_000 }, async () => {
    // A workspace whose first checkpoint takes a while: it lands while the first answer streams.
    for (let index = 0; index < 100; index++) await writeFile(join(cli.sandbox.workspace, `file-${index}.txt`), `file ${index} ${"x".repeat(60)}\n`.repeat(200));
    const paragraph = (label: string): string => Array.from({ length: 60 }, (_, index) => `${label} sentence ${index} says something about the work without any status in it.`).join(" ");
    const before = paragraph("Before");
    const after = paragraph("After");
    const cut = "This answer is cut short by the network after thirty chunks, in the middle of a word, and goes on in the next request.";
    const server = await cli.startServer({
      turns: [
        { text: `${before}\n<write_to_file>\n<path>notes.txt</path>\n<content>\nnotes\n</content>\n</write_to_file>`, chunkSize: 7, delayMs: 2 },
        // The stream fails after a few chunks: a retry line while the answer is mid-line.
        { text: cut, chunkSize: 4, streamError: { type: "overloaded_error", message: "Overloaded", afterChunks: 30 } },
        { text: `${after}\n${complete("Wrote notes.txt.")}`, chunkSize: 7, delayMs: 2 },
      ],
    });
    const result = await cli.run(["run", "--yes", ...anthropicArgs(server), "write notes"]);
    expect(result.status, result.stderr).toBe(0);
    // What streamed of the cut answer stays as it came; the answer goes on on a line of its own.
    const head = `${before}\n`;
    const tail = `\n${after}\nWrote notes.txt.\n`;
    expect(result.stdout.startsWith(head), result.stdout.slice(0, 200)).toBe(true);
    expect(result.stdout.endsWith(tail), result.stdout.slice(-200)).toBe(true);
    const partial = result.stdout.slice(head.length, result.stdout.length - tail.length);
    expect(partial.length).toBeGreaterThan(40);
    expect(cut.startsWith(partial), partial).toBe(true);
    expect(result.stderr).toMatch(/^▸ write_to_file notes\.txt$/m);
    expect(result.stderr.match(/^· checkpoint [0-9a-f]{8}$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(result.stderr).toMatch(/^retry: /m);
  });

  it("the answer's text across turns and the result, each message on its own lines; tools, commands and their output on stderr", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { text: "First I look around.\n<execute_command>\n<command>echo from-the-command</command>\n<requires_approval>false</requires_approval>\n</execute_command>", chunkSize: 5 },
        { text: `Then I finish.\n${complete("All done.")}`, chunkSize: 5 },
      ],
    });
    const result = await cli.run(["run", "--yes", ...anthropicArgs(server), "look around"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe("First I look around.\nThen I finish.\nAll done.\n");
    expect(result.stderr).toContain("$ echo from-the-command");
    expect(result.stderr).toContain("from-the-command\n");
  });
});

describe("plain output: subagents", () => {
  const useSubagents = (items: Array<{ prompt: string; agent: string }>): string => `Delegating.\n<use_subagents>\n<subagents>${JSON.stringify(items)}</subagents>\n</use_subagents>`;
  const usage = { inputTokens: 1000, outputTokens: 100 };
  const childUsage = { inputTokens: 500, outputTokens: 50 };
  const scenario: Scenario = {
    // Two runs of the same task: the text one, then --json.
    turns: twice([
      {
        text: useSubagents([
          { prompt: "ALPHA: read alpha.txt", agent: "explore" },
          { prompt: "BETA: read beta.txt", agent: "explore" },
        ]),
        usage,
      },
      { text: complete("Both reports read."), usage },
    ]),
    conversations: [
      {
        match: "ALPHA:",
        turns: twice([
          { text: "Reading alpha.\n<read_file>\n<path>alpha.txt</path>\n</read_file>", usage: childUsage },
          { text: complete("alpha report"), usage: childUsage },
        ]),
      },
      {
        match: "BETA:",
        turns: twice([
          { text: "Reading beta.\n<read_file>\n<path>beta.txt</path>\n</read_file>", usage: childUsage },
          { text: complete("beta report"), usage: childUsage },
        ]),
      },
    ],
  };

  it("each child line names its subagent, a child's completion reads as the child's, and the summary counts the children's tokens and cost", { timeout: 90_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "alpha.txt"), "the alpha file\n");
    await writeFile(join(cli.sandbox.workspace, "beta.txt"), "the beta file\n");
    const server = await cli.startServer(scenario);
    const plain = await cli.run(["run", "--yes", "--model", "claude-sonnet-5-5", ...anthropicArgs(server), "explore"]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toBe("Delegating.\nBoth reports read.\n");
    const all = `${plain.stdout}${plain.stderr}`.split("\n");
    for (const [marker, subagent] of [
      ["alpha", "explore-1"],
      ["beta", "explore-2"],
    ] as const) {
      const childLines = all.filter((line) => line.toLowerCase().includes(marker));
      expect(childLines.length).toBeGreaterThanOrEqual(3);
      for (const line of childLines) expect(line.startsWith(`[${subagent}] `), line).toBe(true);
      expect(all).toContain(`[${subagent}] ✓ Subagent ${subagent} completed`);
    }
    expect(all.filter((line) => line.includes("Task completed"))).toEqual(["✓ Task completed"]);
    // Parent 2000 in / 200 out ($0.0060), children 2000 in / 200 out ($0.0060).
    expect(plain.stderr.trimEnd().split("\n").at(-1)).toMatch(/^completed · 2 turns · 4,000 tokens in · 400 out · \$0\.0120 · 2 subagents \$0\.0060 · \d+(\.\d)? s$/);

    const json = await cli.run(["run", "--yes", "--json", "--model", "claude-sonnet-5-5", ...anthropicArgs(server), "explore"]);
    expect(json.status, json.stderr).toBe(0);
    const result = json.events.at(-1);
    expect(result).toMatchObject({ type: "result", turns: 2, tokensIn: 4000, tokensOut: 400, subagents: { count: 2, tokensIn: 2000, tokensOut: 200 } });
    expect(result?.["cost"]).toBeCloseTo(0.012, 6);
    expect((result?.["subagents"] as Record<string, number>)["cost"]).toBeCloseTo(0.006, 6);
  });
});
