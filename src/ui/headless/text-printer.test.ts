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

  it("issue #12: a line that arrives mid-stream (a checkpoint) is printed after the streamed line ends, never inside a word", () => {
    const { host, stdout } = createTextHost();
    const text = say("text", "This", { partial: true });
    host.onMessage(text);
    host.onMessage(say("checkpoint_created", "f520fb59fd34aaaa"));
    host.onMessage({ ...text, text: "This is one sentence.\nAnd more" });
    host.onMessage({ ...text, text: "This is one sentence.\nAnd more text.", partial: false });
    expect(stdout.text).toBe("This is one sentence.\n· checkpoint f520fb59\nAnd more text.\n");
  });

  it("issue #12: a streamed reasoning keeps its words together when a line arrives meanwhile", () => {
    const { host, stdout } = createTextHost();
    const reasoning = say("reasoning", "Let me th", { partial: true });
    host.onMessage(reasoning);
    host.onMessage(say("checkpoint_created", "0123456789abcdef"));
    host.onMessage({ ...reasoning, text: "Let me think.", partial: false });
    expect(stdout.text).toContain("Let me think.\n· checkpoint 01234567\n");
  });

  it("prints a readable log of a task: tools, commands, output, errors, the result", () => {
    const { host, stdout, stderr } = createTextHost();
    host.onMessage(say("task", "fix the failing test"));
    const thinking = say("text", "Let me look.", { partial: true });
    host.onMessage(thinking);
    // A tool line interrupts a text still streaming: it starts on its own line.
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
    expect(stdout.text).toBe(
      [
        "Task: fix the failing test",
        "Let me look.",
        "▸ read_file src/x.ts",
        "▸ replace_in_file src/y.ts",
        "  @@ -1 +1 @@",
        "  -a",
        "  +b",
        "$ npm test",
        "1 passing",
        "0 failing",
        "",
        "✓ Task completed",
        "Fixed the off-by-one in src/y.ts.",
        "",
      ].join("\n"),
    );
    expect(stderr.text).toBe("error: The model returned an empty answer.\n");
  });

  it("shows a tool waiting for approval once, as the ask; a refused one is marked", () => {
    const { host, stdout } = createTextHost();
    const meta = { tool: "write_to_file", path: "a.ts", diff: "-a\n+b\n", approval: "ask" };
    host.onMessage(say("tool", "Edit a.ts", { meta }));
    host.onMessage({ type: "ask", ask: "tool", id: "q1", ts: 1, text: "Edit a.ts", partial: false, meta });
    host.onMessage(say("tool", "Edit /etc/x", { meta: { tool: "write_to_file", path: "/etc/x", approval: "refuse" } }));
    host.onMessage(say("checkpoint_created", "d53cf75aee045871fb7e05840db44892befbbdc1"));
    expect(stdout.text).toBe(
      ["? Approve ▸ write_to_file a.ts", "  -a", "  +b", "▸ write_to_file /etc/x (refused)", "· checkpoint d53cf75a", ""].join("\n"),
    );
  });

  it("a sequence split across streamed updates is removed whole, and cairn's own colours stay", () => {
    const { host, stdout, stderr } = createTextHost(true);
    const output = say("command_output", "build \u001b]52;c;aGVs", { partial: true });
    host.onMessage(output);
    host.onMessage({ ...output, text: "build \u001b]52;c;aGVsbG8=\u0007ok\r\u001b[2K", partial: true });
    host.onMessage({ ...output, text: "build \u001b]52;c;aGVsbG8=\u0007ok\r\u001b[2Kdone\n", partial: false });
    host.onMessage(say("error", "bad \u001b]0;title\u0007thing"));
    host.onMessage(say("tool", "Fetch", { meta: { tool: "web_fetch", url: "https://example.com/\u001b[2J" } }));
    const printed = stdout.text.replace(/\u001b\[[0-9;]*m/g, "");
    expect(printed).toContain("build ok\ndone\n");
    expect(printed).toContain("▸ web_fetch https://example.com/");
    // Nothing but SGR colour codes of cairn's own.
    expect(stdout.text.replace(/\u001b\[[0-9;]*m/g, "")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(stderr.text.replace(/\u001b\[[0-9;]*m/g, "")).toBe("error: bad thing\n");
  });

  it("uses no ANSI colours unless asked to (stdout here is not a terminal)", () => {
    const plain = createTextHost();
    plain.host.onMessage(say("completion_result", "done"));
    plain.host.onMessage(say("error", "oops"));
    expect(plain.stdout.text + plain.stderr.text).not.toContain("\u001b[");
    const coloured = createTextHost(true);
    coloured.host.onMessage(say("completion_result", "done"));
    expect(coloured.stdout.text).toContain("\u001b[");
  });
});
