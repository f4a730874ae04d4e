import { describe, expect, it } from "vitest";
import { HeadlessHost } from "./index.js";
import { createStreams, say } from "./test-support/streams.js";

function createTextHost(color?: boolean) {
  const streams = createStreams();
  const host = new HeadlessHost({
    json: false,
    stdout: streams.stdout,
    stderr: streams.stderr,
    stdin: undefined,
    taskId: "t",
    onAsk: "deny",
    yes: false,
    ...(color === undefined ? {} : { color }),
  });
  return { host, ...streams };
}

describe("HeadlessHost text mode", () => {
  it("streams the answer by writing only what is new", () => {
    const { host, stdout } = createTextHost();
    const text = say("text", "Hel", { partial: true });
    host.onMessage(text);
    host.onMessage({ ...text, text: "Hello wor" });
    host.onMessage({ ...text, text: "Hello world", partial: false });
    expect(stdout.text).toBe("Hello world\n");
  });

  it("a line that arrives mid-stream (a checkpoint) goes to stderr once the streamed line ends; stdout is exactly the answer", () => {
    const { host, stdout, stderr } = createTextHost();
    const text = say("text", "This", { partial: true });
    host.onMessage(text);
    host.onMessage(say("checkpoint_created", "f520fb59fd34aaaa"));
    expect(stderr.text).toBe("");
    host.onMessage({ ...text, text: "This is one sentence.\nAnd more" });
    expect(stderr.text).toBe("· checkpoint f520fb59\n");
    host.onMessage({ ...text, text: "This is one sentence.\nAnd more text.", partial: false });
    expect(stdout.text).toBe("This is one sentence.\nAnd more text.\n");
  });

  it("a streamed reasoning is on stderr; a line that arrives meanwhile never splits its words", () => {
    const { host, stdout, stderr } = createTextHost();
    const reasoning = say("reasoning", "Let me th", { partial: true });
    host.onMessage(reasoning);
    host.onMessage(say("checkpoint_created", "0123456789abcdef"));
    host.onMessage({ ...reasoning, text: "Let me think.", partial: false });
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe("thinking:\nLet me th\n· checkpoint 01234567\nink.\n");
  });

  it("an ask while the answer is mid-line is shown at once, on a line of its own, without touching the answer", () => {
    const { host, stdout, stderr } = createTextHost();
    const text = say("text", "Half a li", { partial: true });
    host.onMessage(text);
    host.onMessage({ type: "ask", ask: "followup", id: "q1", ts: 1, text: "Which one?", partial: false });
    expect(stderr.text).toBe("\n? Which one?\n");
    host.onMessage({ ...text, text: "Half a line.", partial: false });
    expect(stdout.text).toBe("Half a line.\n");
  });

  it("prints a readable log of a task: the answer on stdout; tools, commands, output, errors and the result's marker on stderr", () => {
    const { host, stdout, stderr } = createTextHost();
    host.onMessage(say("task", "fix the failing test"));
    const thinking = say("text", "Let me look.", { partial: true });
    host.onMessage(thinking);
    host.onMessage(say("tool", "Read src/x.ts", { meta: { tool: "read_file", path: "src/x.ts" } }));
    host.onMessage({ ...thinking, partial: false });
    host.onMessage(say("tool", "", { partial: true, meta: { tool: "write_to_file", path: "src/y.ts" } }));
    host.onMessage(say("tool", "Edit", { meta: { tool: "replace_in_file", path: "src/y.ts", diff: "@@ -1 +1 @@\n-a\n+b\n" } }));
    host.onMessage(say("command", "npm test"));
    const output = say("command_output", "1 passing", { partial: true });
    host.onMessage(output);
    host.onMessage({ ...output, text: "1 passing\n0 failing\n", partial: false });
    host.onMessage(say("error", "The model returned an empty answer."));
    host.onMessage(say("api_req_started", "", { meta: { tokensIn: 10 } }));
    host.onMessage(say("completion_result", "Fixed the off-by-one in src/y.ts."));
    host.close();
    expect(stdout.text).toBe("Let me look.\nFixed the off-by-one in src/y.ts.\n");
    expect(stderr.text).toBe(
      [
        "Task: fix the failing test",
        "▸ read_file src/x.ts",
        "▸ replace_in_file src/y.ts",
        "  @@ -1 +1 @@",
        "  -a",
        "  +b",
        "$ npm test",
        "1 passing",
        "0 failing",
        "error: The model returned an empty answer.",
        "",
        "✓ Task completed",
        "",
      ].join("\n"),
    );
  });

  it("shows a tool waiting for approval once, as the ask; a refused one is marked", () => {
    const { host, stdout, stderr } = createTextHost();
    const meta = { tool: "write_to_file", path: "a.ts", diff: "-a\n+b\n", approval: "ask" };
    host.onMessage(say("tool", "Edit a.ts", { meta }));
    host.onMessage({ type: "ask", ask: "tool", id: "q1", ts: 1, text: "Edit a.ts", partial: false, meta });
    host.onMessage(say("tool", "Edit /etc/x", { meta: { tool: "write_to_file", path: "/etc/x", approval: "refuse" } }));
    host.onMessage(say("checkpoint_created", "d53cf75aee045871fb7e05840db44892befbbdc1"));
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe(["? Approve ▸ write_to_file a.ts", "  -a", "  +b", "▸ write_to_file /etc/x (refused)", "· checkpoint d53cf75a", ""].join("\n"));
  });

  it("a subagent's lines are on stderr, each named by it; its result reads as its own", () => {
    const { host, stdout, stderr } = createTextHost();
    const child = { subagentId: "explore-1" };
    host.onMessage(say("text", "Reading", { partial: true, ...child }));
    host.onMessage(say("text", "Reading the file.\nThen more.", child));
    host.onMessage(say("tool", "Read a.txt", { meta: { tool: "read_file", path: "a.txt" }, ...child }));
    host.onMessage(say("completion_result", "It says hello.", child));
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe(["[explore-1] Reading the file.", "[explore-1] Then more.", "[explore-1] ▸ read_file a.txt", "[explore-1] ✓ Subagent explore-1 completed", "[explore-1] It says hello.", ""].join("\n"));
  });

  it("a sequence split across streamed updates is removed whole, and cairn's own colours stay", () => {
    const { host, stdout, stderr } = createTextHost(true);
    const output = say("command_output", "build \u001b]52;c;aGVs", { partial: true });
    host.onMessage(output);
    host.onMessage({ ...output, text: "build \u001b]52;c;aGVsbG8=\u0007ok\r\u001b[2K", partial: true });
    host.onMessage({ ...output, text: "build \u001b]52;c;aGVsbG8=\u0007ok\r\u001b[2Kdone\n", partial: false });
    host.onMessage(say("error", "bad \u001b]0;title\u0007thing"));
    host.onMessage(say("tool", "Fetch", { meta: { tool: "web_fetch", url: "https://example.com/\u001b[2J" } }));
    host.onMessage(say("text", "the answer \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007", { partial: false }));
    // Everything but the answer is on stderr, nothing but SGR colour codes of cairn's own in either.
    const printed = stderr.text.replace(/\u001b\[[0-9;]*m/g, "");
    expect(printed).toBe("build ok\ndone\nerror: bad thing\n▸ web_fetch https://example.com/\n");
    expect(stdout.text).toBe("the answer link\n");
  });

  it("uses no ANSI colours unless asked to (stderr here is not a terminal), and never in the answer", () => {
    const plain = createTextHost();
    plain.host.onMessage(say("completion_result", "done"));
    plain.host.onMessage(say("error", "oops"));
    expect(plain.stdout.text + plain.stderr.text).not.toContain("\u001b[");
    const coloured = createTextHost(true);
    coloured.host.onMessage(say("completion_result", "done"));
    expect(coloured.stderr.text).toContain("\u001b[");
    // The answer itself is never coloured: it is what a program reads.
    expect(coloured.stdout.text).toBe("done\n");
  });
});
