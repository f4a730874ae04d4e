/**
 * The terminal UI drawing a task of `cairn serve` from its events (the real
 * App, TuiHost, RemoteTaskFeed and AttachController; the events as the server
 * sends them, docs/server.md): the answer streams, the open ask is a menu whose
 * answer goes to the server, an ask answered in another client leaves the menu,
 * Esc stops the task only when pressed twice, Ctrl+D detaches.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AskResponse } from "../../task/contracts/messages.js";
import { ManualClock } from "../../ui/tui/test-support/fake-terminal.js";
import { mountUi } from "../../ui/tui/test-support/mount.js";
import type { Mounted } from "../../ui/tui/test-support/mount.js";
import { TuiHost } from "../../ui/tui/tui-host.js";
import { AttachController, confirmWindowMs } from "./attach-controller.js";
import { attachSlashCommands } from "./attach-slash-commands.js";
import { promptCommands, type RemotePrompt } from "./remote-prompts.js";
import { RemoteTaskFeed } from "./remote-task-feed.js";
import type { AnswerOutcome } from "./remote-task-feed.js";
import type { TaskEvent } from "./task-event-stream.js";

interface Attached {
  ui: Mounted<AttachController>;
  feed: RemoteTaskFeed;
  answers: Array<{ askId: string; response: AskResponse }>;
  calls: string[];
  left: string[];
  push(...events: TaskEvent[]): Promise<void>;
}

let mounted: Mounted<AttachController> | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

function attach(options: { answerOutcome?: AnswerOutcome; modeError?: string; prompts?: RemotePrompt[] } = {}): Attached {
  const clock = new ManualClock();
  const host = new TuiHost({ clock });
  const answers: Attached["answers"] = [];
  const calls: string[] = [];
  const left: string[] = [];
  const feed = new RemoteTaskFeed({
    host,
    sendAnswer: (askId, response) => {
      answers.push({ askId, response });
      return Promise.resolve(options.answerOutcome ?? "accepted");
    },
    onUserMessage: (text) => controller.delivered(text),
  });
  const controller = new AttachController({
    host,
    feed,
    label: "attached",
    now: clock.now,
    actions: {
      sendMessage: (text) => {
        calls.push(`message ${text}`);
        return Promise.resolve();
      },
      abort: () => {
        calls.push("abort");
        return Promise.resolve();
      },
      undo: () => {
        calls.push("undo");
        return Promise.resolve("Undid the last step.");
      },
      restore: (checkpoint, mode) => {
        calls.push(`restore ${checkpoint} ${mode}`);
        return Promise.resolve("Restored.");
      },
      setModel: (model) => {
        calls.push(`model ${model}`);
        return Promise.resolve(`${model}, from the task's next run`);
      },
      setMode: (mode) => {
        calls.push(`mode ${mode}`);
        return options.modeError === undefined ? Promise.resolve() : Promise.reject(new Error(options.modeError));
      },
    },
    onLeave: (how) => left.push(how),
  });
  const prompts = options.prompts;
  const ui = mountUi({ clock, host, controller, commands: attachSlashCommands(prompts === undefined ? undefined : () => promptCommands(prompts)) });
  mounted = ui;
  return {
    ui,
    feed,
    answers,
    calls,
    left,
    push: async (...events) => {
      for (const event of events) feed.push(event);
      await ui.tick();
    },
  };
}

const running = (openAsk: string | null = null): TaskEvent => ({ type: "state", running: true, status: "running", openAsk, seq: 0 });
const say = (id: string, say: string, text: string, partial = false): TaskEvent => ({ v: 2, type: "say", say, id, text, partial, ts: 1, taskId: "01TEST" });
const delta = (id: string, text: string): TaskEvent => ({ v: 2, type: "say", say: "text", id, delta: text, partial: true });
const commandAsk = (id: string, command: string): TaskEvent => ({
  v: 2,
  type: "ask",
  ask: "command",
  id,
  text: command,
  partial: false,
  ts: 1,
  taskId: "01TEST",
  meta: { tool: "execute_command", command, approval: "ask" },
});

describe("the terminal UI attached to a task of cairn serve", () => {
  it("draws the task's messages as they stream, deltas folded into the message they extend", async () => {
    const attached = attach();
    await attached.push(running(), say("t", "task", "count the lines"), say("a", "text", "There are ", true), delta("a", "forty-two lines.\nAll "), delta("a", "counted."));
    expect(attached.ui.frame()).toContain("› count the lines");
    expect(attached.ui.frame()).toContain("There are forty-two lines.");
    expect(attached.ui.frame()).toContain("All counted.");
    expect(attached.ui.frame()).toMatch(/ACT · attached · .*Esc Esc stop · \^D detach/);
  });

  it("shows the open ask as the usual menu; the answer chosen goes to the server and the card says approved", async () => {
    const attached = attach();
    await attached.push(running(), commandAsk("c1", "npm test"), running("c1"));
    expect(attached.ui.frame()).toContain("Run this command?");
    expect(attached.ui.frame()).toMatch(/› 1\. Yes/);
    await attached.ui.press("1");
    await attached.ui.tick();
    expect(attached.answers).toEqual([{ askId: "c1", response: { response: "yes" } }]);
    expect(attached.ui.frame()).toContain("✓ approved");
    expect(attached.ui.frame()).not.toContain("Run this command?");
  });

  it("an ask answered in another client leaves the menu and is shown with that client's answer; nothing is sent from here", async () => {
    const attached = attach();
    // The state that names the open ask may come before the ask itself.
    await attached.push(running("c1"), commandAsk("c1", "rm -rf build"));
    expect(attached.ui.frame()).toContain("Run this command?");
    await attached.push({ type: "answered", askId: "c1", response: "no", by: "browser" }, running(null), say("e", "error", "The user denied this operation."));
    expect(attached.ui.frame()).not.toContain("Run this command?");
    expect(attached.ui.frame()).toContain("✗ rejected");
    expect(attached.answers).toEqual([]);
  });

  it("an ask that is no longer open when this client reconnects (state alone) leaves the menu too", async () => {
    const attached = attach();
    await attached.push(running("c1"), commandAsk("c1", "npm test"));
    expect(attached.ui.frame()).toContain("Run this command?");
    await attached.push(running(null));
    expect(attached.ui.frame()).not.toContain("Run this command?");
    await attached.ui.press("1");
    expect(attached.answers).toEqual([]);
  });

  it("says so when another client answered first and this answer was not used", async () => {
    const attached = attach({ answerOutcome: "answered-already" });
    await attached.push(running("c1"), commandAsk("c1", "npm test"));
    await attached.ui.press("2");
    await attached.ui.tick();
    expect(attached.answers).toEqual([{ askId: "c1", response: { response: "no" } }]);
    expect(attached.ui.frame()).toContain("This question was answered in another client first; your answer was not used.");
  });

  it("Esc once only asks for confirmation; Esc again within the window stops the task; Enter sends a message", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "working on it", true));
    await attached.ui.press("\u001b");
    await attached.ui.tick();
    await attached.ui.tick();
    expect(attached.calls).toEqual([]);
    expect(attached.ui.frame()).toContain("Esc again stops the task · ^D detaches");
    // Too late: the first press has expired, so this one asks again.
    await attached.ui.tick(confirmWindowMs + 1);
    await attached.ui.press("\u001b");
    expect(attached.calls).toEqual([]);
    await attached.ui.press("\u001b");
    expect(attached.calls).toEqual(["abort"]);
    await attached.ui.press("use tabs");
    await attached.ui.press("\r");
    expect(attached.calls).toEqual(["abort", "message use tabs"]);
  });

  it("a message typed while the task runs is sent at once and shown as queued until the task says it reached the model", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "working", true));
    await attached.ui.press("use tabs");
    await attached.ui.press("\r");
    expect(attached.calls).toEqual(["message use tabs"]);
    expect(attached.ui.frame()).toContain("queued: use tabs");
    // Sent already: it cannot be taken back.
    expect(attached.ui.frame()).not.toContain("Up takes the last one back");
    await attached.push(say("f", "user_feedback", "use tabs"));
    expect(attached.ui.frame()).not.toContain("queued: use tabs");
    expect(attached.ui.frame()).toContain("› use tabs");
  });

  it("Ctrl+D on an empty line detaches without stopping the task; with text it deletes as usual; /detach detaches too", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "working", true));
    await attached.ui.press("ab\u0001");
    await attached.ui.press("\u0004");
    expect(attached.left).toEqual([]);
    expect(attached.ui.frame()).toMatch(/› b/);
    await attached.ui.press("\u0004");
    await attached.ui.press("\u0004");
    expect(attached.left).toEqual(["detached"]);
    expect(attached.calls).toEqual([]);
    const again = attach();
    await again.ui.press("/detach");
    await again.ui.press("\r");
    expect(again.left).toEqual(["detached"]);
  });

  it("/undo and /restore go to the server and show what it said; a /restore without a checkpoint says how to use it", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "working", true));
    await attached.ui.press("/undo");
    await attached.ui.press("\r");
    await attached.ui.press("/restore abc123 files");
    await attached.ui.press("\r");
    await attached.ui.press("/restore");
    await attached.ui.press("\r");
    expect(attached.calls).toEqual(["undo", "restore abc123 files"]);
    await attached.ui.tick();
    const frame = attached.ui.frame();
    expect(frame).toContain("Undid the last step.");
    expect(frame).toContain("Restored.");
    expect(frame).toContain("Usage: /restore <checkpoint> [files|task|both]");
  });

  it("Ctrl+C twice stops the task and leaves, as quitting the local UI does", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "working", true));
    await attached.ui.press("\u0003");
    expect(attached.calls).toEqual([]);
    await attached.ui.press("\u0003");
    expect(attached.calls).toEqual(["abort"]);
    expect(attached.left).toEqual(["stopped"]);
  });

  it("a message left half-written by a server that died is shown as far as it went once the task is said not to run", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "first line\nhalf a sec", true));
    expect(attached.ui.frame()).toContain("half a sec");
    await attached.push({ type: "state", running: false, status: "interrupted", openAsk: null, seq: 3 }, say("n", "info", "later note"));
    const frame = attached.ui.frame();
    expect(frame.indexOf("half a sec")).toBeLessThan(frame.indexOf("later note"));
  });

  it("counts tokens and cost in the status line as requests stream, and keeps what the task's log counted beyond them", async () => {
    const attached = attach();
    const request = (id: string, tokensIn: number, cost: number, partial: boolean): TaskEvent => ({
      v: 2,
      type: "say",
      say: "api_req_started",
      id,
      text: "",
      partial,
      ts: 1,
      taskId: "01TEST",
      meta: { tokensIn, tokensOut: 50, cacheReads: 0, cacheWrites: 0, cost, contextTokens: tokensIn + 50, contextWindow: 200_000 },
    });
    await attached.push(running(), request("r1", 1000, 0.01, true));
    expect(attached.ui.frame()).toMatch(/1\.1k\/200k \(1%\) · ↑1\.0k ↓50 \$0\.0100/);
    await attached.push(request("r1", 1000, 0.01, false), request("r2", 2000, 0.02, false));
    expect(attached.ui.frame()).toContain("$0.0300");
    // The log's totals include a subagent's request this client never saw.
    await attached.push({ type: "status", status: "running", tokensIn: 4000, tokensOut: 200, cost: 0.05 });
    // The status line is read again every second.
    await attached.ui.tick(1000);
    expect(attached.ui.frame()).toMatch(/↑4\.0k ↓200 \$0\.0500/);
  });

  it("ends a run with the usual summary line, from the result and status events", async () => {
    const attached = attach();
    await attached.push(running(), { type: "status", status: "completed", tokensIn: 1200, tokensOut: 80, cost: 0.0123 }, { type: "result", status: "completed", durationMs: 4000 });
    expect(attached.ui.frame()).toContain("Done in 4s · 1200 tokens in, 80 out · $0.0123");
  });

  it("Tab switches the task's mode through the server; the status line shows the mode the server says, whoever switched it", async () => {
    const attached = attach();
    await attached.push(running(), say("a", "text", "working", true));
    expect(attached.ui.frame()).toMatch(/ACT · attached/);
    await attached.ui.press("\t");
    await attached.ui.tick();
    expect(attached.calls).toEqual(["mode plan"]);
    expect(attached.ui.frame()).toMatch(/PLAN · attached/);
    // Another client switched it back: the logged switch and the state say so.
    await attached.push({ v: 2, type: "say", say: "info", id: "m", text: "Act mode (switched by web)", partial: false, ts: 1, taskId: "01TEST", meta: { mode: "act", by: "web" } }, { ...running(), mode: "act" });
    await attached.ui.tick(1000);
    expect(attached.ui.frame()).toMatch(/ACT · attached/);
    expect(attached.ui.frame()).toContain("Act mode (switched by web)");
    await attached.ui.press("/mode plan");
    await attached.ui.press("\r");
    expect(attached.calls).toEqual(["mode plan", "mode plan"]);
  });

  it("a mode switch the server refuses puts the mode back and says why", async () => {
    const attached = attach({ modeError: "task 01TEST is not running (completed); resume it" });
    await attached.push({ type: "state", running: false, status: "completed", openAsk: null, seq: 3 });
    await attached.ui.press("\t");
    await attached.ui.tick();
    await attached.ui.tick(1000);
    expect(attached.ui.frame()).toContain("The mode was not switched: task 01TEST is not running (completed); resume it");
    expect(attached.ui.frame()).toMatch(/ACT · attached/);
  });

  it("the / menu lists the task's MCP prompts as the server gives them; one chosen is sent to the task as typed, with its arguments", async () => {
    const attached = attach({ prompts: [{ command: "/mcp__bistro__welcome", description: "Greets the guest (MCP prompt of bistro)", usage: "[name]" }] });
    await attached.push(running(), say("a", "text", "working", true));
    await attached.ui.press("/mcp__");
    await attached.ui.tick();
    expect(attached.ui.frame()).toContain("/mcp__bistro__welcome");
    expect(attached.ui.frame()).toContain("Greets the guest (MCP prompt of bistro)");
    await attached.ui.press("bistro__welcome Ada");
    await attached.ui.press("\r");
    await attached.ui.tick();
    expect(attached.calls).toEqual(["message /mcp__bistro__welcome Ada"]);
  });

  it("/model shows the server task's model, and /model ID chooses the one it goes on with, through the server", async () => {
    const attached = attach();
    attached.feed.state.model = "claude-sonnet-5-5";
    await attached.push(running());
    await attached.ui.press("/model");
    await attached.ui.press("\r");
    await attached.ui.tick();
    expect(attached.ui.frame()).toContain("Model: claude-sonnet-5-5 (the task in the server;");
    await attached.ui.press("/model claude-haiku-5");
    await attached.ui.press("\r");
    await attached.ui.tick();
    expect(attached.calls).toEqual(["model claude-haiku-5"]);
    expect(attached.ui.frame()).toContain("Model for the next request: claude-haiku-5, from the task's next run");
  });
});
