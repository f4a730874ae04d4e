import { afterEach, describe, expect, it, vi } from "vitest";
import { AttentionNotifier, deliveriesFor, notificationSequence } from "./notifications.js";

afterEach(() => vi.useRealTimers());

function notifier(afterSeconds: number) {
  const written: string[] = [];
  const attention = new AttentionNotifier({ channel: "auto", afterSeconds, env: { TERM_PROGRAM: "WezTerm", PATH: "" }, write: (text) => written.push(text) });
  return { attention, written };
}

describe("notifications", () => {
  it("pick the terminal's own sequence from what it says about itself, and notify-send only on a desktop that has it", () => {
    expect(deliveriesFor("auto", { TERM_PROGRAM: "iTerm.app" })).toEqual(["osc9"]);
    expect(deliveriesFor("auto", { WT_SESSION: "1" })).toEqual(["osc9"]);
    expect(deliveriesFor("auto", { TERM: "foot" })).toEqual(["osc777"]);
    expect(deliveriesFor("auto", { TERM: "xterm-256color" })).toEqual(["bell"]);
    // No display to show a desktop notification on.
    expect(deliveriesFor("auto", { TERM: "xterm-256color", PATH: "/usr/bin:/bin" })).toEqual(["bell"]);
    expect(deliveriesFor("off", { TERM_PROGRAM: "iTerm.app" })).toEqual([]);
    expect(deliveriesFor("osc777", {})).toEqual(["osc777"]);
  });

  it("write OSC 9 and OSC 777 without control characters or field separators, wrapped for tmux inside it", () => {
    expect(notificationSequence("osc9", "cairn", "a question\u001b[31m; rm", {})).toBe("\u001b]9;cairn: a question [31m rm\u0007");
    expect(notificationSequence("osc777", "cairn", "done;ok", {})).toBe("\u001b]777;notify;cairn;done ok\u0007");
    expect(notificationSequence("bell", "cairn", "x", { TMUX: "1" })).toBe("\u0007");
    expect(notificationSequence("osc9", "cairn", "done", { TMUX: "/tmp/tmux,1,0" })).toBe("\u001bPtmux;\u001b\u001b]9;cairn: done\u0007\u001b\\");
  });

  it("say it at once when the terminal lost the focus, else after the wait; once; never when the user came back first", () => {
    vi.useFakeTimers();
    const { attention, written } = notifier(10);
    attention.need("ask:1", "an action waits for your approval");
    vi.advanceTimersByTime(9_000);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(written).toEqual(["\u001b]9;cairn: an action waits for your approval\u0007"]);
    attention.need("ask:1", "an action waits for your approval");
    vi.advanceTimersByTime(20_000);
    expect(written).toHaveLength(1);

    // A key before the wait is over: the user is here.
    attention.need("ask:2", "a question for you");
    vi.advanceTimersByTime(5_000);
    attention.settle();
    vi.advanceTimersByTime(20_000);
    expect(written).toHaveLength(1);

    attention.focus(false);
    attention.need("ask:3", "the task is done");
    expect(written.at(-1)).toContain("the task is done");
    // The focus lost while something waits: said then.
    attention.focus(true);
    attention.need("ask:4", "a question for you");
    attention.focus(false);
    expect(written.at(-1)).toContain("a question for you");
    expect(written).toHaveLength(3);
  });
});
