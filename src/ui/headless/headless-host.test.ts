import { describe, expect, it, vi } from "vitest";
import { HeadlessAskError, HeadlessHost, noAnswerAvailable, type HeadlessHostOptions } from "./index.js";
import { ask, createStreams, say, settle } from "./test-support/streams.js";

function createHost(overrides: Partial<HeadlessHostOptions> = {}) {
  const streams = createStreams();
  const host = new HeadlessHost({
    json: true,
    stdout: streams.stdout,
    stderr: streams.stderr,
    stdin: streams.stdin,
    taskId: "task-1",
    onAsk: "fail",
    yes: false,
    ...overrides,
  });
  return { host, ...streams };
}

const never = new AbortController().signal;

describe("HeadlessHost --json output", () => {
  it("prints one JSON line per message with the documented fields", () => {
    const { host, stdout } = createHost();
    const task = say("task", "fix the bug");
    host.onMessage(task);
    host.onMessage(say("tool", "Read src/x.ts", { meta: { tool: "read_file", path: "src/x.ts" } }));
    const lines = stdout.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ v: 2, type: "say", say: "task", text: "fix the bug", partial: false, ts: task.ts, id: task.id, taskId: "task-1" });
    expect(Object.keys(lines[0] ?? {})).toEqual(["v", "type", "say", "text", "partial", "ts", "id", "taskId"]);
    expect(lines[1]?.["meta"]).toEqual({ tool: "read_file", path: "src/x.ts" });
  });

  it("prints partial updates as deltas after a snapshot, and each message's final state exactly once", () => {
    const { host, stdout } = createHost({ jsonDeltaHold: { chars: 0, ms: 0 } });
    const first = say("text", "Hel", { partial: true });
    host.onMessage(first);
    host.onMessage({ ...first, text: "Hello wor" });
    host.onMessage({ ...first, text: "Hello world", partial: false });
    host.onMessage({ ...first, text: "Hello world", partial: false });
    host.onMessage({ ...first, text: "Hello world!", partial: true });
    const lines = stdout.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line["text"] ?? `+${String(line["delta"])}`, line["partial"]])).toEqual([
      ["Hel", true],
      ["+lo wor", true],
      ["Hello world", false],
    ]);
  });
});

describe("HeadlessHost --json pacing: a slow stream is not mostly line overhead", () => {
  it("holds small partial updates until 512 characters are new or a second has passed; a final line never waits", () => {
    vi.useFakeTimers();
    try {
      const { host, stdout } = createHost();
      const first = say("text", "a", { partial: true });
      let text = "a";
      host.onMessage(first); // the snapshot
      for (let update = 0; update < 20; update += 1) {
        text += "b".repeat(10);
        host.onMessage({ ...first, text });
        vi.advanceTimersByTime(40); // a slow stream: 10 characters every 40 ms
      }
      const lines = () => stdout.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
      // 800 ms, 200 characters: nothing yet beyond the snapshot.
      expect(lines()).toHaveLength(1);
      vi.advanceTimersByTime(200); // a second after the first held update
      expect(lines()).toHaveLength(2);
      expect(lines()[1]).toMatchObject({ delta: "b".repeat(200), partial: true });
      host.onMessage({ ...first, text: `${text}c` });
      host.onMessage({ ...first, text: `${text}cd`, partial: false });
      expect(lines()).toHaveLength(3);
      expect(lines()[2]).toMatchObject({ text: `${text}cd`, partial: false });
      vi.advanceTimersByTime(5000);
      expect(lines()).toHaveLength(3);
      const big = say("text", "x", { partial: true });
      host.onMessage(big);
      host.onMessage({ ...big, text: "x".repeat(600) });
      expect(lines()).toHaveLength(5); // 512 characters or more: at once
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("HeadlessHost asks answered over stdin", () => {
  it("prints the ask with its id and takes the JSON answer for that id", async () => {
    const { host, stdout, stdin } = createHost();
    const message = ask("tool", "Edit src/x.ts", { meta: { tool: "write_to_file", path: "src/x.ts" } });
    host.onMessage(message);
    const answer = host.answerAsk(message, never);
    const printed = stdout.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatchObject({ type: "ask", ask: "tool", id: message.id, partial: false });
    stdin.write(`${JSON.stringify({ id: message.id, response: "message", text: "use tabs" })}\n`);
    await expect(answer).resolves.toEqual({ response: "message", text: "use tabs" });
  });

  it("reports an answer for an unknown id on stderr, ignores it, and keeps waiting", async () => {
    const { host, stdin, stderr } = createHost();
    const message = ask("command", "npm test");
    const answer = host.answerAsk(message, never);
    stdin.write('{"id": "nope", "response": "yes"}\n');
    stdin.write("not json at all\n");
    await settle();
    expect(stderr.text).toContain(`ignored an answer for ask id nope: it is not an open ask (waiting for ${message.id})`);
    expect(stderr.text).toContain("ignored a line that is not a JSON answer");
    stdin.write(`{"id": "${message.id}", "response": "no"}\n`);
    await expect(answer).resolves.toEqual({ response: "no" });
  });

  it("accepts plain y / n / text lines in text mode, and an option number for a question (asks on stderr: stdout is the answer's)", async () => {
    const { host, stdin, stdout, stderr } = createHost({ json: false });
    const tool = ask("tool", "Edit", { meta: { tool: "write_to_file", path: "a.ts" } });
    const pending = host.answerAsk(tool, never);
    expect(stderr.text).toContain("? Approve ▸ write_to_file a.ts");
    expect(stderr.text).toContain(`answer: y, n, or type a message (ask ${tool.id})`);
    stdin.write("y\n");
    await expect(pending).resolves.toEqual({ response: "yes" });
    const refused = host.answerAsk(ask("command", "rm -rf build"), never);
    stdin.write("n\n");
    await expect(refused).resolves.toEqual({ response: "no" });
    const question = ask("followup", "Which file?", { meta: { options: ["a.ts", "b.ts"] } });
    const picked = host.answerAsk(question, never);
    expect(stderr.text).toContain("  2. b.ts");
    stdin.write("2\n");
    await expect(picked).resolves.toEqual({ response: "message", text: "b.ts" });
    const feedback = host.answerAsk(ask("completion_result", ""), never);
    stdin.write("also update the README\n");
    await expect(feedback).resolves.toEqual({ response: "message", text: "also update the README" });
    expect(stdout.text).toBe("");
  });

  it('"always" answers an ask that offers a rule as a yes that saves it (text and JSON), and is only a message where none is offered', async () => {
    const offering = (): ReturnType<typeof ask> => ask("command", "npm test", { meta: { tool: "execute_command", command: "npm test", suggestedRule: "Bash(npm test:*)" } });
    const text = createHost({ json: false });
    const typed = text.host.answerAsk(offering(), never);
    text.stdin.write("always project\n");
    await expect(typed).resolves.toEqual({ response: "yes", always: "project" });
    const question = text.host.answerAsk(ask("followup", "How often?"), never);
    text.stdin.write("always\n");
    await expect(question).resolves.toEqual({ response: "message", text: "always" });

    const json = createHost();
    const message = offering();
    const sent = json.host.answerAsk(message, never);
    json.stdin.write(`${JSON.stringify({ id: message.id, response: "yes", always: "user" })}\n`);
    await expect(sent).resolves.toEqual({ response: "yes", always: "user" });
    void json.host.answerAsk(offering(), never);
    json.stdin.write('{"id": "x", "response": "no", "always": "user"}\n');
    await settle();
    expect(json.stderr.text).toContain('"always" goes with "response": "yes"');
  });

  it('"preview" answers a command ask that offers one as a no carrying the preview (text and JSON); elsewhere it is only a message', async () => {
    const previewable = (): ReturnType<typeof ask> => ask("command", "rm -rf build", { meta: { tool: "execute_command", command: "rm -rf build", previewable: true } });
    const text = createHost({ json: false });
    const typed = text.host.answerAsk(previewable(), never);
    text.stdin.write("preview\n");
    await expect(typed).resolves.toEqual({ response: "no", preview: true });
    const plain = text.host.answerAsk(ask("command", "rm -rf build", { meta: { tool: "execute_command", command: "rm -rf build" } }), never);
    text.stdin.write("preview\n");
    await expect(plain).resolves.toEqual({ response: "message", text: "preview" });
    const json = createHost();
    const message = previewable();
    const sent = json.host.answerAsk(message, never);
    json.stdin.write(`${JSON.stringify({ id: message.id, response: "no", preview: true })}\n`);
    await expect(sent).resolves.toEqual({ response: "no", preview: true });
  });

  it("keeps answers typed ahead for the next asks", async () => {
    const { host, stdin } = createHost({ json: false });
    stdin.write("y\nn\n");
    await expect(host.answerAsk(ask("tool", "one"), never)).resolves.toEqual({ response: "yes" });
    await expect(host.answerAsk(ask("tool", "two"), never)).resolves.toEqual({ response: "no" });
  });

  it("stops reading stdin between asks and after close, so the process can exit", async () => {
    const { host, stdin } = createHost();
    const message = ask("tool", "x");
    const answer = host.answerAsk(message, never);
    expect(stdin.isPaused()).toBe(false);
    stdin.write(`{"id": "${message.id}", "response": "yes"}\n`);
    await answer;
    expect(stdin.isPaused()).toBe(true);
    host.close();
    expect(stdin.listenerCount("data")).toBe(0);
  });
});

describe("HeadlessHost without answers", () => {
  it("deny: with stdin closed, each ask kind gets the answer that lets the task go on", async () => {
    const { host, stdin, stderr } = createHost({ onAsk: "deny" });
    stdin.end();
    await expect(host.answerAsk(ask("tool", "edit"), never)).resolves.toEqual({ response: "no" });
    await expect(host.answerAsk(ask("command", "make"), never)).resolves.toEqual({ response: "no" });
    await expect(host.answerAsk(ask("followup", "which?"), never)).resolves.toEqual({ response: "message", text: noAnswerAvailable });
    await expect(host.answerAsk(ask("completion_result", ""), never)).resolves.toEqual({ response: "yes" });
    await expect(host.answerAsk(ask("api_req_failed", "500"), never)).resolves.toEqual({ response: "no" });
    await expect(host.answerAsk(ask("mistake_limit_reached", "3 mistakes"), never)).resolves.toEqual({ response: "no" });
    expect(stderr.text).toMatch(/answered no to the "tool" ask \(a\d+\) automatically: standard input is closed; --on-ask deny/);
  });

  it("fail: with stdin closed the ask rejects with a HeadlessAskError naming the ask", async () => {
    const { host, stdin } = createHost({ onAsk: "fail" });
    stdin.end();
    const message = ask("command", "npm test");
    const error = await host.answerAsk(message, never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HeadlessAskError);
    expect((error as HeadlessAskError).askKind).toBe("command");
    expect((error as HeadlessAskError).askId).toBe(message.id);
    expect((error as HeadlessAskError).reason).toBe("stdin_closed");
    expect((error as Error).message).toBe(
      `no answer to the "command" ask (id ${message.id}): standard input is closed and --on-ask is fail. ` + "Pass --yes to approve tools, answer asks as JSON lines on standard input, or use --on-ask deny.",
    );
  });

  it("an MCP server's form nobody can fill in (stdin closed under --on-ask fail, or --yes) is declined and the task goes on", async () => {
    const { host, stderr } = createHost({ stdin: undefined, onAsk: "fail", json: false });
    await expect(host.answerAsk(ask("elicitation", "Guests:"), never)).resolves.toEqual({ response: "no" });
    expect(stderr.text).toMatch(/answered no to the "elicitation" ask \(a\d+\) automatically: nobody can answer/);
    const withYes = createHost({ yes: true, json: false });
    await expect(withYes.host.answerAsk(ask("elicitation", "Guests:"), never)).resolves.toEqual({ response: "no" });
    expect(withYes.stderr.text).toContain("--yes approves actions; it does not fill in an MCP server's form");
  });

  it("no stdin at all counts as closed", async () => {
    const { host } = createHost({ stdin: undefined, onAsk: "deny" });
    await expect(host.answerAsk(ask("tool", "edit"), never)).resolves.toEqual({ response: "no" });
  });

  it("stdin closing while an ask waits applies the policy to it", async () => {
    const { host, stdin } = createHost({ onAsk: "fail" });
    const pending = host.answerAsk(ask("tool", "edit"), never);
    stdin.end();
    await expect(pending).rejects.toBeInstanceOf(HeadlessAskError);
  });

  it("a last answer without a newline before EOF still counts", async () => {
    const { host, stdin } = createHost({ json: false, onAsk: "fail" });
    const pending = host.answerAsk(ask("tool", "edit"), never);
    stdin.end("y");
    await expect(pending).resolves.toEqual({ response: "yes" });
  });

  it("ask timeout: an open but silent stdin gets the policy after askTimeoutMs", async () => {
    const deny = createHost({ onAsk: "deny", askTimeoutMs: 5, json: false });
    await expect(deny.host.answerAsk(ask("tool", "edit"), never)).resolves.toEqual({ response: "no" });
    expect(deny.stderr.text).toContain("automatically: no answer within 5 ms; --on-ask deny");
    const fail = createHost({ onAsk: "fail", askTimeoutMs: 5 });
    const error = await fail.host.answerAsk(ask("followup", "which?"), never).catch((caught: unknown) => caught);
    expect((error as HeadlessAskError).reason).toBe("timeout");
    expect((error as Error).message).toContain("it was not answered within 5 ms and --on-ask is fail");
    // A late answer is reported, not applied to anything.
    fail.stdin.write('{"id": "late", "response": "yes"}\n');
  });

  it("--yes answers at once without reading stdin", async () => {
    const { host, stdin } = createHost({ yes: true });
    await expect(host.answerAsk(ask("tool", "edit"), never)).resolves.toEqual({ response: "yes" });
    await expect(host.answerAsk(ask("followup", "which?"), never)).resolves.toEqual({ response: "message", text: noAnswerAvailable });
    expect(stdin.listenerCount("data")).toBe(0);
  });

  it("an abort stops the wait; a later answer for it is reported as already answered", async () => {
    const { host, stdin, stderr } = createHost();
    const controller = new AbortController();
    const message = ask("tool", "edit");
    const pending = host.answerAsk(message, controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow();
    const next = ask("tool", "other");
    const nextAnswer = host.answerAsk(next, never);
    stdin.write(`{"id": "${message.id}", "response": "yes"}\n{"id": "${next.id}", "response": "no"}\n`);
    await expect(nextAnswer).resolves.toEqual({ response: "no" });
    expect(stderr.text).toContain(`ask id ${message.id}: it was already answered`);
  });
});
