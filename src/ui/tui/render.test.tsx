import { afterEach, describe, expect, it } from "vitest";
import type { AskMeta, SayMeta, ToolMetaOf } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskType, SayType, UiMessage } from "../../task/contracts/messages.js";
import { FakeController, ManualClock, startFakeTerminal } from "./test-support/fake-terminal.js";
import type { FakeTerminal } from "./test-support/fake-terminal.js";
import { TuiHost, defaultFrameMs } from "./tui-host.js";
import { linesPerFrame } from "./transcript.js";

/** A `say` as the Task sends it; its meta is typed as its writers declare it (message-meta.ts). */
function say<K extends SayType>(id: string, kind: K, text: string, options: { partial?: boolean; meta?: SayMeta<K> } = {}): UiMessage {
  return { id, ts: 0, type: "say", say: kind, text, partial: options.partial ?? false, ...(options.meta === undefined ? {} : { meta: options.meta }) };
}

function ask<K extends AskType>(id: string, kind: K, text: string, meta?: AskMeta<K>): AskMessage {
  return { id, ts: 0, type: "ask", ask: kind, text, partial: false, ...(meta === undefined ? {} : { meta }) };
}

async function nextTurn(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

let terminal: FakeTerminal | undefined;
afterEach(() => {
  terminal?.instance.unmount();
  terminal = undefined;
});

describe("renderTui in a terminal", () => {
  it("never draws wider than an 80-column terminal", async () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    terminal = startFakeTerminal({ controller: new FakeController(), host, columns: 80, rows: 30 });
    const long = "word ".repeat(70);
    const path = `src/${"very-long-folder-name/".repeat(6)}file.ts`;
    host.onMessage(say("task", "task", `Fix it ${long}`));
    host.onMessage(say("r", "reasoning", `${long}\nsecond`));
    host.onMessage(say("a", "text", `# ${long}\n- ${long}\n> ${long}\n\`\`\`\n\tindented ${"x".repeat(200)}\n\`\`\`\n${"y".repeat(300)}`));
    host.onMessage(say("w", "tool", `Write ${path}`, { meta: { tool: "write_to_file", path, approval: "auto", diff: `@@ -1 +1 @@\n-${"old ".repeat(40)}\n+${"new ".repeat(40)}\n` } }));
    host.onMessage(say("c", "command", "npm test", { meta: { tool: "execute_command", command: `npm test -- ${long}` } }));
    host.onMessage(say("o", "command_output", `${"z".repeat(250)}\n\tTAB\u001b[31mred\u001b[0m\nprogress 10%\rprogress 100%`, { partial: true }));
    clock.advance(defaultFrameMs);
    await terminal.settle();
    const pending = host.answerAsk(ask("f", "followup", long, { tool: "ask_followup_question", options: [long, "short"] }), new AbortController().signal);
    host.onMessage(say("e", "error_retry", long, { meta: { attempt: 1, delayMs: 1000, retryAt: clock.now() + 1000, kind: "overloaded" } }));
    clock.advance(defaultFrameMs);
    await terminal.settle();
    await terminal.press("typed answer that is long ".repeat(5));
    const frame = terminal.stdout.frame();
    expect(frame).toContain("progress 100%");
    expect(frame).toContain("› 1. word word");
    expect(frame).toContain("Write src/very-long-folder-name/");
    expect(terminal.stdout.frameCount).toBeGreaterThan(2);
    expect(terminal.stdout.widestLine, terminal.stdout.widestText).toBeLessThanOrEqual(80);
    await terminal.press("\r");
    await expect(pending).resolves.toMatchObject({ response: "message" });
  });

  it("streams a 1 MB answer in small updates with a bounded number of renders", async () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    terminal = startFakeTerminal({ controller: new FakeController(), host, measureWidth: false });
    await terminal.settle();
    const lines: string[] = [];
    let size = 0;
    for (let index = 0; size < 1_048_576; index += 1) {
      const line = index % 50 === 0 ? "```" : `line ${String(index).padStart(6, "0")}: **the answer** goes on and on with \`code\``;
      lines.push(line);
      size += line.length + 1;
    }
    const text = `${lines.join("\n")}\nthe very end of the answer`;
    const framesBefore = terminal.stdout.frameCount;
    const publishesBefore = host.publishCount;
    let updates = 0;
    // 128 characters every quarter of a millisecond (512 kB/s, faster than any model). The Task
    // updates a streaming message at most once a presentation frame, whatever its deltas; each
    // update of a message is compared whole with the last one (appendedText, a memory compare),
    // so tens of thousands of 16-character updates of a 1 MB text would mostly measure that.
    for (let end = 128; end < text.length + 128; end += 128) {
      host.onMessage(say("answer", "text", text.slice(0, end), { partial: true }));
      updates += 1;
      clock.advance(0.25);
      // a network read delivers about 1 kB at a time
      if (updates % 8 === 0) await nextTurn();
    }
    host.onMessage(say("answer", "text", text, { partial: false }));
    clock.advance(defaultFrameMs);
    await terminal.settle();

    const elapsedMs = updates * 0.25 + 50;
    const publishes = host.publishCount - publishesBefore;
    const renders = terminal.stdout.frameCount - framesBefore;
    expect(updates).toBeGreaterThan(8_000);
    // A frame prints at most linesPerFrame lines; the lines beyond go out in frames that follow quickly.
    expect(publishes).toBeLessThanOrEqual(Math.ceil(elapsedMs / defaultFrameMs) + Math.ceil(lines.length / linesPerFrame) + 2);
    // One render per publish; the status line refreshes once a second besides.
    expect(renders).toBeLessThanOrEqual(publishes + Math.ceil(elapsedMs / 1000) + 5);
    expect(renders).toBeLessThan(updates / 50);
    const frame = terminal.stdout.frame();
    expect(frame).toContain("the very end of the answer");
    // every 50 lines a fence opens or closes: code is shown as written, prose is formatted
    expect(frame).toContain("│ line 000001: **the answer** goes on and on with `code`");
    expect(frame).toContain("\nline 000051: the answer goes on and on with code");
    // every line printed exactly once, never re-rendered into the history
    expect(frame.split("line 012345:").length - 1).toBe(1);
    // Printing 1 MB through Ink is real work; on a loaded shared machine it takes a while.
  }, 240_000);

  it("keeps the live area shorter than the screen while a streamed answer runs ahead of the printed lines", async () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    terminal = startFakeTerminal({ controller: new FakeController(), host, columns: 80, rows: 30 });
    await terminal.settle();
    // More complete lines than a frame prints, each wrapping to three rows: the live tail is
    // the last lines not printed yet; taller than the screen, it would make Ink clear the terminal.
    const lines = Array.from({ length: linesPerFrame + 40 }, (_, index) => `- item ${index} ${"wrapped words ".repeat(15)}`);
    host.onMessage(say("a", "text", `${lines.join("\n")}\nthe line being written`, { partial: true }));
    clock.advance(0);
    await terminal.settle();
    const live = terminal.stdout.liveFrame().split("\n");
    expect(live.length).toBeLessThan(30);
    expect(live.join("\n")).toContain("the line being written");
  });

  it("shows an approved edit once: the tool's final say and its ask are one card", async () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    terminal = startFakeTerminal({ controller: new FakeController(), host });
    const meta: ToolMetaOf<"replace_in_file"> = { tool: "replace_in_file", path: "src/math.ts", diff: "@@ -1 +1 @@\n-a - b\n+a + b\n" };
    host.onMessage(say("s", "tool", "Edit src/math.ts", { partial: true, meta: { tool: "replace_in_file", path: "src/math.ts" } }));
    host.onMessage(say("s", "tool", "Edit src/math.ts", { meta: { ...meta, approval: "ask" } }));
    const question = ask("q", "tool", "Edit src/math.ts", { ...meta, approval: "ask" });
    host.onMessage(question);
    const answer = host.answerAsk(question, new AbortController().signal);
    clock.advance(defaultFrameMs);
    await terminal.settle();
    await terminal.press("1");
    await expect(answer).resolves.toEqual({ response: "yes" });
    host.onMessage(say("c", "command", "npm test", { meta: { tool: "execute_command", command: "npm test", approval: "auto" } }));
    host.onMessage(say("o", "command_output", "1 passed\n", { meta: { tool: "execute_command", end: { kind: "exited", exitCode: 0, signal: null }, durationMs: 30 } }));
    clock.advance(defaultFrameMs);
    await terminal.settle();
    const frame = terminal.stdout.frame();
    expect(frame.split("Edit src/math.ts").length - 1).toBe(1);
    expect(frame.split("+a + b").length - 1).toBe(1);
    expect(frame).toContain("✓ approved");
    expect(frame).toContain("$ npm test");
    expect(frame).toContain("exit 0");
  });

  it("shows on an edit's card the count of new problems the language servers found (#32)", async () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    terminal = startFakeTerminal({ controller: new FakeController(), host });
    const meta: ToolMetaOf<"replace_in_file"> = { tool: "replace_in_file", path: "src/total.ts", approval: "auto", diff: "@@ -1 +1 @@\n-number\n+string\n" };
    host.onMessage(say("e", "tool", "Edit src/total.ts", { meta }));
    // The card was drawn before the servers answered: the count comes with the card again (the Task's amendment).
    clock.advance(defaultFrameMs);
    await terminal.settle();
    host.onMessage(say("e", "tool", "Edit src/total.ts", { meta: { ...meta, diagnostics: { errors: 1, warnings: 2 } } }));
    host.onMessage(say("f", "tool", "Edit src/report.ts", { meta: { ...meta, path: "src/report.ts" } }));
    host.onMessage(say("f", "tool", "Edit src/report.ts", { meta: { ...meta, path: "src/report.ts", diagnostics: { errors: 0, warnings: 0 } } }));
    clock.advance(defaultFrameMs);
    await terminal.settle();
    const frame = terminal.stdout.frame();
    expect(frame).toContain("⚠ 3 new problems: 1 error, 2 warnings");
    expect(frame.split("new problem").length - 1).toBe(1);
    // The card again, with the count and without its diff.
    expect(frame.split("Edit src/total.ts").length - 1).toBe(2);
    expect(frame.split("+string").length - 1).toBe(2);
  });

  it("wraps new output to the new width after the terminal is resized", async () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    terminal = startFakeTerminal({ controller: new FakeController(), host, columns: 80 });
    await terminal.settle();
    terminal.stdout.columns = 40;
    terminal.stdout.emit("resize");
    await terminal.settle();
    host.onMessage(say("a", "text", "narrow ".repeat(30)));
    clock.advance(defaultFrameMs);
    await terminal.settle();
    const rows = terminal.stdout
      .frame()
      .split("\n")
      .filter((row) => row.includes("narrow"));
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(40);
  });

  it("the second Ctrl+C ends waitUntilExit", async () => {
    const host = new TuiHost({ clock: new ManualClock() });
    const controller = new FakeController();
    terminal = startFakeTerminal({ controller, host });
    await terminal.settle();
    await terminal.press("\u0003");
    await terminal.press("\u0003");
    await terminal.instance.waitUntilExit();
    expect(controller.aborts).toBe(1);
    expect(controller.exits).toBe(1);
  });
});
