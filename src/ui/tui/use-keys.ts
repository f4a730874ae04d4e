import { useApp, useStdin } from "ink";
import { useEffect, useRef, useState } from "react";
import type { AskMessage, AskResponse } from "../../task/contracts/messages.js";
import type { InputHistoryStore, TuiController } from "./controller.js";
import * as editor from "./input-editor.js";
import type { EditorState } from "./input-editor.js";
import { decodeInput } from "./key-decoder.js";
import type { KeyEvent } from "./key-decoder.js";
import { askKeyAction, replyIsOpen } from "./ask-keys.js";
import { parseSlashInput } from "./slash-commands.js";
import type { SlashCommandRegistry } from "./slash-commands.js";
import type { TuiHost } from "./tui-host.js";

export interface KeyState {
  /** The text being typed. */
  value: string;
  /** Where the cursor is in `value`. */
  cursor: number;
  /** The highlighted entry of the command completion menu. */
  menuIndex: number;
  selected: number;
  /** The question whose "Tell cairn what to do instead" input was opened. */
  replyFor: string | undefined;
  exitArmed: boolean;
  showReasoning: boolean;
}

interface KeyOptions {
  controller: TuiController;
  host: TuiHost;
  commands: SlashCommandRegistry;
  history: InputHistoryStore | undefined;
  /** Re-render after a change the controller owns (the mode, the queue). */
  refresh: () => void;
}

let noticeCounter = 0;

/** Two Esc presses this close together are one "Esc Esc". */
const doubleEscapeMs = 800;

/**
 * Every key of the UI in one place, so the input line, the ask prompt, the
 * command menu and the global keys never both act on one keypress. Reads
 * Ink's raw input events (see key-decoder.ts).
 */
export function useKeys({ controller, host, commands, history, refresh }: KeyOptions): KeyState {
  const app = useApp();
  const { internal_eventEmitter: events, setRawMode } = useStdin();
  // Keys can arrive faster than React re-renders, so the handler reads and
  // writes refs; state only triggers the render.
  const [state, setState] = useState<KeyState>({ value: "", cursor: 0, menuIndex: 0, selected: 0, replyFor: undefined, exitArmed: false, showReasoning: false });
  const current = useRef(state);
  const selectionAsk = useRef<string | undefined>(undefined);
  const pasting = useRef(false);
  const lastEscape = useRef(0);
  const historyCursor = useRef(new editor.InputHistoryCursor(() => history?.entries() ?? []));
  const update = (change: Partial<KeyState>): void => {
    current.current = { ...current.current, ...change };
    setState(current.current);
  };
  const edit = (next: EditorState): void => update({ value: next.text, cursor: next.cursor, menuIndex: 0 });
  const editorState = (): EditorState => ({ text: current.current.value, cursor: current.current.cursor });

  const print = (text: string, kind: "info" | "warning" | "error" = "info"): void => {
    noticeCounter += 1;
    host.onMessage({ type: "say", say: kind, id: `tui-command-${noticeCounter}`, ts: Date.now(), text, partial: false });
  };

  /** Enter on typed text: a slash command runs here, a message is delivered. */
  const send = (typed: string): void => {
    history?.add(typed);
    historyCursor.current.reset();
    if (parseSlashInput(typed).kind === "text") deliver(typed);
    else execute(typed);
  };

  /** A message for the task: it waits while cairn works, else it goes to the controller. */
  const deliver = (typed: string): void => {
    if (controller.status().busy && controller.enqueue !== undefined) {
      controller.enqueue(typed);
      refresh();
      return;
    }
    controller.submit(typed);
  };

  /** Runs a slash command. */
  const execute = (typed: string): void => {
    const session = controller.slashSession?.();
    if (session === undefined) {
      print("Commands are not available here.", "error");
      return;
    }
    // Not a command here (an MCP server's prompt before its server is up): the task expands it or says why not.
    const context = { print, send: (text: string) => controller.submit(text), session, setInput: (text: string) => edit(editor.editorWith(text)) };
    void commands.execute(typed, context).then((handled) => handled || deliver(typed));
  };

  /** Keys of the completion menu; true when the key was used. */
  const handleMenu = (event: KeyEvent): boolean => {
    if (event.kind !== "key") return false;
    const { value, menuIndex } = current.current;
    const offered = commands.menuFor(value);
    if (offered.length === 0) return false;
    if (event.name === "up" || event.name === "down") {
      update({ menuIndex: (menuIndex + (event.name === "up" ? offered.length - 1 : 1)) % offered.length });
      return true;
    }
    const chosen = offered[Math.min(menuIndex, offered.length - 1)]!;
    if (event.name === "tab") {
      edit(editor.editorWith(`/${chosen.name} `));
      return true;
    }
    if (event.name === "return" && commands.get(value.slice(1)) === undefined) {
      edit(editor.emptyEditor);
      send(`/${chosen.name}`);
      return true;
    }
    return false;
  };

  /** Tab after `@part`: completes the path (to the common part of several; they are listed). */
  const completeMention = (): boolean => {
    const { value, cursor } = current.current;
    const match = /(^|\s)@([^\s@]*)$/.exec(value.slice(0, cursor));
    if (match === null || controller.completeMention === undefined) return false;
    const partial = match[2] ?? "";
    void controller.completeMention(partial).then((options) => {
      if (options.length === 0) return;
      const common = options.reduce((prefix, option) => {
        let length = 0;
        while (length < prefix.length && prefix[length] === option[length]) length += 1;
        return prefix.slice(0, length);
      });
      if (options.length > 1)
        print(
          options
            .slice(0, 30)
            .map((option) => `@${option}`)
            .join("  "),
        );
      const state = editorState();
      if (common.length > partial.length && state.cursor === cursor) edit(editor.insert(state, common.slice(partial.length)));
    });
    return true;
  };

  /** Answers the open question; the user's own typed text is cleared and remembered for ↑. */
  const answer = (askMessage: AskMessage, response: AskResponse, typed?: string): void => {
    host.answer(askMessage.id, response);
    if (typed !== undefined) {
      history?.add(typed);
      historyCursor.current.reset();
      edit(editor.emptyEditor);
    }
    update({ selected: 0, replyFor: undefined });
  };

  const handleAsk = (askMessage: AskMessage, event: KeyEvent): boolean => {
    if (selectionAsk.current !== askMessage.id) {
      selectionAsk.current = askMessage.id;
      update({ selected: 0, replyFor: undefined });
    }
    const action = askKeyAction({
      ask: askMessage,
      event,
      value: current.current.value,
      selected: current.current.selected,
      replyOpened: current.current.replyFor === askMessage.id,
      pasting: pasting.current,
    });
    switch (action.kind) {
      case "edit":
        return false;
      case "ignore":
        return true;
      case "select":
        update({ selected: action.index });
        return true;
      case "answer":
        answer(askMessage, action.response, action.typed);
        return true;
      case "openReply":
        update({ replyFor: askMessage.id });
        return !action.thenEdit;
      case "closeReply":
        edit(editor.emptyEditor);
        update({ replyFor: undefined });
        return true;
    }
  };

  /** Tab at the plan: act mode, and the plan is approved (with what was typed, if anything). */
  const approvePlan = (askMessage: AskMessage): void => {
    if (controller.status().mode !== "act") controller.toggleMode();
    const typed = current.current.value.trim();
    answer(askMessage, typed === "" ? { response: "yes" } : { response: "yes", text: typed }, typed === "" ? undefined : typed);
    refresh();
  };

  const handleEditing = (event: KeyEvent): void => {
    const state = editorState();
    if (event.kind === "text") {
      edit(editor.insert(state, event.text));
      return;
    }
    if (event.kind === "ctrl") {
      const byLetter: Record<string, (value: EditorState) => EditorState> = {
        a: editor.home,
        e: editor.end,
        b: editor.left,
        f: editor.right,
        u: editor.deleteToLineStart,
        k: editor.deleteToLineEnd,
        w: editor.deleteWordBefore,
        h: editor.backspace,
        d: editor.deleteForward,
      };
      const action = byLetter[event.letter];
      if (action !== undefined) edit(action(state));
      return;
    }
    switch (event.name) {
      case "return": {
        const outcome = editor.enter(state);
        if (outcome.kind === "continue") {
          edit(outcome.state);
          return;
        }
        const typed = outcome.text.trim();
        edit(editor.emptyEditor);
        if (typed !== "") send(typed);
        return;
      }
      case "newline":
        edit(editor.insert(state, "\n"));
        return;
      case "backspace":
        edit(editor.backspace(state));
        return;
      case "delete":
        edit(editor.deleteForward(state));
        return;
      case "left":
        edit(editor.left(state));
        return;
      case "right":
        edit(editor.right(state));
        return;
      case "home":
        edit(editor.home(state));
        return;
      case "end":
        edit(editor.end(state));
        return;
      case "wordLeft":
        edit(editor.wordLeft(state));
        return;
      case "wordRight":
        edit(editor.wordRight(state));
        return;
      case "deleteWordBefore":
        edit(editor.deleteWordBefore(state));
        return;
      case "deleteWordAfter":
        edit(editor.deleteWordAfter(state));
        return;
      case "up": {
        if (!editor.onFirstLine(state)) {
          edit(editor.verticalMove(state, "up"));
          return;
        }
        // An empty input while a message waits: take it back to edit or drop it.
        if (state.text === "" && (controller.queued?.().length ?? 0) > 0) {
          const withdrawn = controller.withdrawQueued?.();
          if (withdrawn !== undefined) edit(editor.editorWith(withdrawn));
          refresh();
          return;
        }
        const previous = historyCursor.current.previous(state.text);
        if (previous !== undefined) edit(editor.editorWith(previous));
        return;
      }
      case "down": {
        if (!editor.onLastLine(state)) {
          edit(editor.verticalMove(state, "down"));
          return;
        }
        const next = historyCursor.current.next();
        if (next !== undefined) edit(editor.editorWith(next));
        return;
      }
      default:
        return;
    }
  };

  const handle = (event: KeyEvent): void => {
    const { exitArmed } = current.current;
    if (event.kind === "key" && event.name === "pasteStart") {
      pasting.current = true;
      return;
    }
    if (event.kind === "key" && event.name === "pasteEnd") {
      pasting.current = false;
      return;
    }
    if (event.kind === "key" && (event.name === "focusIn" || event.name === "focusOut")) {
      controller.attention?.focus(event.name === "focusIn");
      return;
    }
    controller.attention?.settle();
    if (event.kind === "ctrl" && event.letter === "c") {
      if (exitArmed) {
        controller.exit();
        app.exit();
        return;
      }
      update({ exitArmed: true });
      controller.abort();
      return;
    }
    if (exitArmed) update({ exitArmed: false });
    // Ctrl+D on an empty line leaves a task that runs elsewhere running (cairn attach); otherwise it deletes forward.
    if (event.kind === "ctrl" && event.letter === "d" && current.current.value === "" && controller.detach !== undefined) {
      controller.detach();
      app.exit();
      return;
    }
    const ask = host.getSnapshot().pendingAsk;
    const escape = event.kind === "key" && event.name === "escape";
    // Esc in the reply to a question goes back to its choices; it stops nothing.
    // Esc on an MCP server's form declines it (the task goes on); it stops nothing.
    if (escape && ask !== undefined && (replyIsOpen(ask, current.current.replyFor === ask.id, current.current.value) || ask.ask === "elicitation")) {
      handleAsk(ask, event);
      return;
    }
    if (escape) {
      // The typed text stays: Esc then Enter sends it as an interruption.
      if (controller.status().busy || ask !== undefined) {
        controller.abort();
        // The controller may have something to say (a confirmation it waits for).
        refresh();
      } else if (current.current.value === "" && Date.now() - lastEscape.current < doubleEscapeMs) {
        // Esc twice on an empty input, with nothing running: go back to one of your messages (Claude Code's rewind).
        lastEscape.current = 0;
        execute("/rewind");
        return;
      } else edit(editor.emptyEditor);
      lastEscape.current = Date.now();
      return;
    }
    if (handleMenu(event)) return;
    if (event.kind === "key" && event.name === "return" && parseSlashInput(current.current.value.trim()).kind === "command") {
      const typed = current.current.value.trim();
      edit(editor.emptyEditor);
      send(typed);
      return;
    }
    if (event.kind === "key" && event.name === "tab" && completeMention()) return;
    if ((event.kind === "key" && (event.name === "tab" || event.name === "backtab")) || (event.kind === "ctrl" && event.letter === "t")) {
      if (ask?.ask === "plan_mode_respond") {
        approvePlan(ask);
        return;
      }
      controller.toggleMode();
      refresh();
      return;
    }
    if (event.kind === "ctrl" && event.letter === "o") {
      update({ showReasoning: !current.current.showReasoning });
      return;
    }
    if (ask !== undefined && handleAsk(ask, event)) return;
    handleEditing(event);
  };

  const handleRef = useRef(handle);
  handleRef.current = handle;
  useEffect(() => {
    setRawMode(true);
    const listener = (raw: string): void => {
      for (const event of decodeInput(raw, pasting.current)) handleRef.current(event);
    };
    events.on("input", listener);
    return () => {
      events.off("input", listener);
      setRawMode(false);
    };
  }, [events, setRawMode]);

  // A new ask starts at its first option even before a key reached it.
  const askId = host.getSnapshot().pendingAsk?.id;
  return selectionAsk.current === askId ? state : { ...state, selected: 0, replyFor: undefined };
}
