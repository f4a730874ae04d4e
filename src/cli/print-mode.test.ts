/**
 * Print mode as users of `claude -p` and `codex exec` expect it, through the
 * real CLI (bin/cairn → dist/: `npm run build` first) against the scripted
 * LLM server: the task ends when the model completes (no "Accept the
 * result?" ask), and piped standard input is the task or its context.
 */
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const writeA = { text: "<write_to_file>\n<path>a.txt</path>\n<content>\na\n</content>\n</write_to_file>" };

function requestText(index: number): string {
  return JSON.stringify(cli.server?.requests[index]?.body);
}

describe("print mode: the task completes when the model completes", () => {
  it("cairn -p and cairn run without --yes print the result and exit 0, in text and --json, with no completion ask", { timeout: 90_000 }, async () => {
    const server = await cli.startServer({ turns: [done("the answer"), done("the answer"), done("the answer"), done("the answer")] });
    for (const command of [["-p"], ["run"]]) {
      const text = await cli.run([...command, ...anthropicArgs(server), "say it"]);
      expect(text.status, text.stderr).toBe(0);
      expect(text.stdout).toContain("the answer");
      expect(text.stdout + text.stderr).not.toMatch(/Accept the result|no answer to the "completion_result" ask/);

      const json = await cli.run([...command, "--json", ...anthropicArgs(server), "say it"]);
      expect(json.status, json.stderr).toBe(0);
      expect(json.events.filter((event) => event["type"] === "ask")).toEqual([]);
      expect(json.messages.find((message) => message.say === "completion_result")?.text).toBe("the answer");
      expect(json.events.at(-1)).toMatchObject({ type: "result", status: "completed", exitStatus: 0 });
    }
  });

  it("other asks still follow --on-ask: denied with deny, a failure naming the ask with fail", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [writeA, done("went on without a.txt"), writeA] });
    const denied = await cli.run(["-p", "--on-ask", "deny", ...anthropicArgs(server), "write a"]);
    expect(denied.status, denied.stderr).toBe(0);
    expect(denied.stdout).toContain("went on without a.txt");
    expect(requestText(1)).toMatch(/denied/);

    const failed = await cli.run(["-p", ...anthropicArgs(server), "write a"]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/no answer to the "tool" ask/);
  });

  it.skipIf(!tmuxAvailable())("cairn -p in a terminal prints the result and exits without waiting for y", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [done("printed on a terminal")] });
    const terminal = await cli.openCairn(["-p", ...anthropicArgs(server), "say it"], { columns: 120 });
    expect(await terminal.waitForExit({ timeoutMs: 30_000 })).toBe(0);
    const screen = await terminal.captureAll();
    expect(screen).toContain("printed on a terminal");
    expect(screen).not.toMatch(/Accept the result/);
  });
});

describe("print mode: piped standard input", () => {
  it("echo task | cairn -p: with no task argument, the task is read from standard input", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [done("read from the pipe"), done("read by cairn run")] });
    const result = await cli.run(["-p", ...anthropicArgs(server)], { stdin: "count the files\nin this folder\n" });
    expect(result.status, result.stderr).toBe(0);
    expect(requestText(0)).toContain("count the files\\nin this folder");
    expect(result.stdout).toContain("read from the pipe");
    const run = await cli.run(["run", ...anthropicArgs(server)], { stdin: "list the tests\n" });
    expect(run.status, run.stderr).toBe(0);
    expect(requestText(1)).toContain("list the tests");
  });

  it("cairn -p TASK with piped input: the input is added to the task as context, and the transcript shows it", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [done("summarised")] });
    const result = await cli.run(["-p", "--json", ...anthropicArgs(server), "summarise this log"], { stdin: "line one of the log\nline two\n" });
    expect(result.status, result.stderr).toBe(0);
    const sent = requestText(0);
    expect(sent).toContain("summarise this log");
    expect(sent).toContain("line one of the log\\nline two");
    expect(sent.indexOf("summarise this log")).toBeLessThan(sent.indexOf("line one of the log"));
    const task = result.messages.find((message) => message.say === "task");
    expect(task?.text).toContain("line two");
  });

  it("cairn -p with neither a task nor piped input is a usage error that says how to give one", async () => {
    const result = await cli.run(["-p", "--provider", "anthropic", "--api-key", "k"], { stdin: "" });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/no task given/);
    expect(result.stderr).toMatch(/standard input/);
  });
});
