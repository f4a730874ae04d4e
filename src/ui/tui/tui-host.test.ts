import { describe, expect, it } from "vitest";
import type { AskMeta } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskType, SayType, UiMessage } from "../../task/contracts/messages.js";
import { ManualClock } from "./test-support/fake-terminal.js";
import { TuiHost, backlogFrameMs, defaultFrameMs } from "./tui-host.js";
import { linesPerFrame } from "./transcript.js";

function say(id: string, say: SayType, text: string, partial = false): UiMessage {
  return { id, ts: 0, type: "say", say, text, partial };
}

function ask<K extends AskType>(id: string, kind: K, text = "", meta?: AskMeta<K>): AskMessage {
  return { id, ts: 0, type: "ask", ask: kind, text, partial: false, ...(meta === undefined ? {} : { meta }) };
}

function setup(): { clock: ManualClock; host: TuiHost } {
  const clock = new ManualClock();
  return { clock, host: new TuiHost({ clock }) };
}

describe("TuiHost", () => {
  it("T4: updates a partial message in place by its id", () => {
    const { clock, host } = setup();
    host.onMessage(say("tool-1", "tool", "reading", true));
    host.onMessage(say("tool-1", "tool", "reading src/a.ts", true));
    clock.advance(100);
    const live = host.getSnapshot().live;
    expect(live).toHaveLength(1);
    expect(live[0]!.message.text).toBe("reading src/a.ts");
  });

  it("pins the checklist the task last set, and none once a new task starts", () => {
    const { host } = setup();
    host.onMessage(say("t1", "task", "first task"));
    host.onMessage(say("c1", "checklist", "- [x] one\n- [ ] two"));
    expect(host.latestChecklist?.text).toBe("- [x] one\n- [ ] two");
    host.onMessage(say("t2", "task", "second task"));
    expect(host.latestChecklist).toBeUndefined();
    host.onMessage(say("c2", "checklist", "- [ ] three"));
    expect(host.latestChecklist?.text).toBe("- [ ] three");
  });

  it("shows the checklist in its panel only: it is not printed into the history at each update", () => {
    const { clock, host } = setup();
    host.onMessage(say("t1", "task", "a task"));
    host.onMessage(say("c1", "checklist", "- [x] one\n- [ ] two"));
    clock.advance(100);
    const snapshot = host.getSnapshot();
    const shown = [...snapshot.staticItems.flatMap((item) => (item.kind === "markdown" ? [] : [item.message])), ...snapshot.live.map((item) => item.message)];
    expect(shown.map((message) => message.id)).toEqual(["t1"]);
  });

  it("coalesces a burst of messages into one render and renders at most once a frame", () => {
    const { clock, host } = setup();
    for (let index = 0; index < 500; index += 1) host.onMessage(say("a", "text", "x".repeat(index), true));
    clock.advance(0);
    expect(host.publishCount).toBe(1);
    for (let index = 0; index < 1000; index += 1) {
      host.onMessage(say("a", "text", "y".repeat(index), true));
      clock.advance(1);
    }
    // one second of updates every millisecond
    expect(host.publishCount).toBeLessThanOrEqual(1 + Math.ceil(1000 / defaultFrameMs) + 1);
    expect(host.publishCount).toBeGreaterThanOrEqual(Math.floor(1000 / defaultFrameMs) - 1);
  });

  it("prints final messages once and keeps only the open tail live", () => {
    const { clock, host } = setup();
    host.onMessage(say("task", "task", "Fix it"));
    host.onMessage(say("r", "reasoning", "thinking", false));
    host.onMessage(say("t", "text", "line one\nline two\npart", true));
    clock.advance(defaultFrameMs);
    const snapshot = host.getSnapshot();
    expect(snapshot.staticItems.map((item) => item.key)).toEqual(["task", "r", "t:0"]);
    const printed = snapshot.staticItems[2]!;
    expect(printed.kind === "markdown" && printed.lines.length).toBe(2);
    expect(snapshot.live).toHaveLength(1);
    expect(snapshot.live[0]!.printedLength).toBe("line one\nline two\n".length);
    host.onMessage(say("t", "text", "line one\nline two\npart three", false));
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().staticItems.map((item) => item.key)).toEqual(["task", "r", "t:0", "t:18"]);
    expect(host.getSnapshot().live).toHaveLength(0);
  });

  it("prints a burst of lines a few hundred per frame, in order, in frames that follow each other quickly", () => {
    const { clock, host } = setup();
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index}`);
    host.onMessage(say("t", "text", `${lines.join("\n")}\n`, true));
    clock.advance(0);
    const printedLines = (): string[] =>
      host
        .getSnapshot()
        .staticItems.flatMap((item) => (item.kind === "markdown" ? item.lines : []))
        .map((line) => (line.kind === "paragraph" ? line.spans.map((span) => span.text).join("") : line.kind));
    expect(printedLines()).toHaveLength(linesPerFrame);
    expect(host.getSnapshot().backlog).toBe(true);
    // The next frame does not wait for the usual frame time: the backlog goes out in short steps.
    clock.advance(backlogFrameMs);
    expect(printedLines()).toHaveLength(2 * linesPerFrame);
    // A message is final only when it says so (issue #12): the answer ends, then a note follows.
    host.onMessage(say("t", "text", `${lines.join("\n")}\n`, false));
    host.onMessage(say("next", "info", "after the answer"));
    clock.advance(backlogFrameMs);
    expect(printedLines()).toHaveLength(3 * linesPerFrame);
    clock.advance(Math.ceil(lines.length / linesPerFrame) * backlogFrameMs);
    expect(printedLines()).toEqual(lines);
    expect(host.getSnapshot().backlog).toBe(false);
    expect(host.getSnapshot().staticItems.at(-1)).toMatchObject({ key: "next" });
  });

  it("removes escape sequences that arrive in a later update of a streaming answer, even one cut between two updates", () => {
    const { clock, host } = setup();
    host.onMessage(say("t", "text", "plain so far ", true));
    host.onMessage(say("t", "text", "plain so far \u001b]52;c;aGk=\u0007copied \u001b[3", true));
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().live[0]!.message.text).toBe("plain so far copied ");
    host.onMessage(say("t", "text", "plain so far \u001b]52;c;aGk=\u0007copied \u001b[31mred", true));
    host.onMessage(say("t", "text", "plain so far \u001b]52;c;aGk=\u0007copied \u001b[31mred and more", true));
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().live[0]!.message.text).toBe("plain so far copied red and more");
  });

  it("keeps an ask live until the user answers it, even when other messages follow", async () => {
    const { clock, host } = setup();
    const message = ask("q", "tool", "", { tool: "write_to_file", path: "a.txt" });
    const answer = host.answerAsk(message, new AbortController().signal);
    host.onMessage(say("note", "info", "checkpoint saved"));
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().pendingAsk?.id).toBe("q");
    expect(host.getSnapshot().live.map((item) => item.message.id)).toEqual(["q", "note"]);
    host.answer("q", { response: "no", text: "wrong file" });
    await expect(answer).resolves.toEqual({ response: "no", text: "wrong file" });
    const snapshot = host.getSnapshot();
    expect(snapshot.pendingAsk).toBeUndefined();
    expect(snapshot.staticItems.map((item) => item.key)).toEqual(["q", "note"]);
    expect(snapshot.staticItems[0]).toMatchObject({ answer: { response: "no", text: "wrong file" } });
  });

  it("T5: stops waiting for an answer when the task aborts", async () => {
    const { clock, host } = setup();
    const controller = new AbortController();
    const answer = host.answerAsk(ask("q", "followup", "Which?", { tool: "ask_followup_question", options: ["a"] }), controller.signal);
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().pendingAsk?.id).toBe("q");
    controller.abort(new Error("task aborted"));
    await expect(answer).rejects.toThrow("task aborted");
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().pendingAsk).toBeUndefined();
    const already = new AbortController();
    already.abort();
    await expect(host.answerAsk(ask("late", "tool"), already.signal)).rejects.toThrow();
  });

  it("shows the waiting spinner from request start until the first token", () => {
    const { clock, host } = setup();
    host.onMessage(say("task", "task", "Fix it"));
    host.onMessage(say("req", "api_req_started", "", true));
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().activity).toEqual({ kind: "waiting", since: clock.now() - defaultFrameMs });
    host.onMessage(say("t", "text", "H", true));
    clock.advance(defaultFrameMs);
    expect(host.getSnapshot().activity).toEqual({ kind: "idle" });
    // the request itself is not part of the transcript
    expect(host.getSnapshot().live.map((item) => item.message.id)).toEqual(["t"]);
  });
});
