import { afterEach, describe, expect, it } from "vitest";
import * as editor from "./input-editor.js";
import { decodeInput } from "./key-decoder.js";
import { FakeController } from "./test-support/fake-terminal.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

const at = (text: string, cursor: number): editor.EditorState => ({ text, cursor });

describe("the input line edits text, keeps a history and decodes keys", () => {
  it("moves by character, word and line; deletes words and line parts", () => {
    expect(editor.insert(at("helo", 3), "l")).toEqual(at("hello", 4));
    expect(editor.backspace(at("hello", 5))).toEqual(at("hell", 4));
    expect(editor.deleteForward(at("hello", 0))).toEqual(at("ello", 0));
    expect(editor.wordLeft(at("fix the bug", 11))).toEqual(at("fix the bug", 8));
    expect(editor.wordRight(at("fix the bug", 0))).toEqual(at("fix the bug", 3));
    expect(editor.deleteWordBefore(at("fix the bug", 11))).toEqual(at("fix the ", 8));
    expect(editor.deleteWordAfter(at("fix the bug", 3))).toEqual(at("fix bug", 3));
    expect(editor.deleteToLineStart(at("one\ntwo three", 8))).toEqual(at("one\nthree", 4));
    expect(editor.deleteToLineEnd(at("one two\nthree", 3))).toEqual(at("one\nthree", 3));
    expect(editor.home(at("one\ntwo", 6))).toEqual(at("one\ntwo", 4));
    expect(editor.end(at("one\ntwo", 1))).toEqual(at("one\ntwo", 3));
    expect(editor.backspace(at("a😀", 3))).toEqual(at("a", 1));
  });

  it("Up/Down move between lines of a multi-line message; a trailing backslash continues on a new line", () => {
    expect(editor.verticalMove(at("abcd\nxy", 7), "up")).toEqual(at("abcd\nxy", 2));
    expect(editor.verticalMove(at("abcd\nxy", 3), "down")).toEqual(at("abcd\nxy", 7));
    expect(editor.enter(at("first\\", 6))).toEqual({ kind: "continue", state: at("first\n", 6) });
    expect(editor.enter(at("done", 4))).toEqual({ kind: "send", text: "done" });
  });

  it("history: Up goes back through earlier inputs, Down returns to what was being typed", () => {
    const cursor = new editor.InputHistoryCursor(() => ["one", "two"]);
    expect(cursor.previous("draft")).toBe("two");
    expect(cursor.previous("two")).toBe("one");
    expect(cursor.previous("one")).toBeUndefined();
    expect(cursor.next()).toBe("two");
    expect(cursor.next()).toBe("draft");
  });

  it("decodes keys: text then Enter in one read, Ctrl+C twice, Backspace vs Delete, Shift+Enter, paste markers", () => {
    expect(decodeInput("fix it\r", false)).toEqual([
      { kind: "text", text: "fix it" },
      { kind: "key", name: "return" },
    ]);
    expect(decodeInput("\u0003\u0003", false)).toEqual([
      { kind: "ctrl", letter: "c" },
      { kind: "ctrl", letter: "c" },
    ]);
    expect(decodeInput("\u007f", false)).toEqual([{ kind: "key", name: "backspace" }]);
    expect(decodeInput("\u001b[3~", false)).toEqual([{ kind: "key", name: "delete" }]);
    expect(decodeInput("\u001b[13;2u", false)).toEqual([{ kind: "key", name: "newline" }]);
    expect(decodeInput("\u001b[200~", false)).toEqual([{ kind: "key", name: "pasteStart" }]);
    expect(decodeInput("a\r\nb", true)).toEqual([{ kind: "text", text: "a\nb" }]);
  });
});

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

class QueueController extends FakeController {
  readonly waiting: string[] = [];
  enqueue(text: string): void {
    this.waiting.push(text);
  }
  queued(): readonly string[] {
    return this.waiting;
  }
  withdrawQueued(): string | undefined {
    return this.waiting.pop();
  }
}

describe("typing while cairn works (ink-testing-library)", () => {
  it("Enter while busy queues the message (shown as queued); Up on an empty line takes it back to edit", async () => {
    const controller = new QueueController();
    const ui = (mounted = mountApp({ controller }));
    await ui.press("check b.ts");
    await ui.press("\r");
    expect(controller.waiting).toEqual(["check b.ts"]);
    expect(controller.submitted).toEqual([]);
    await ui.tick();
    expect(ui.frame()).toContain("queued: check b.ts");
    await ui.press("\u001b[A");
    await ui.tick();
    expect(controller.waiting).toEqual([]);
    expect(ui.frame()).toContain("› check b.ts");
    expect(ui.frame()).not.toContain("queued:");
  });

  it("Esc keeps the typed text, so Enter then sends it as the interruption", async () => {
    const controller = new QueueController();
    const ui = (mounted = mountApp({ controller }));
    await ui.press("stop, use yarn");
    await ui.press("\u001b");
    await new Promise((resolve) => setTimeout(resolve, 60));
    await ui.tick();
    expect(controller.aborts).toBe(1);
    expect(ui.frame()).toContain("stop, use yarn");
  });
});
