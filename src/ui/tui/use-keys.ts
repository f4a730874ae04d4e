import { useApp, useInput } from "ink";
import type { Key } from "ink";
import { useRef, useState } from "react";
import type { AskMessage, AskResponse } from "../../task/contracts/messages.js";
import type { TuiController } from "./controller.js";
import { readFollowupMeta } from "./meta.js";
import type { TuiHost } from "./tui-host.js";

export interface KeyState {
  value: string;
  selected: number;
  exitArmed: boolean;
  showReasoning: boolean;
}

interface KeyOptions {
  controller: TuiController;
  host: TuiHost;
  /** Re-render after a change the controller owns (the mode). */
  refresh: () => void;
}

/**
 * Every key of the UI in one place, so the text input, the ask prompt and the
 * global keys never both act on one keypress.
 */
export function useKeys({ controller, host, refresh }: KeyOptions): KeyState {
  const app = useApp();
  // Keys can arrive faster than React re-renders (and re-subscribes the handler),
  // so the handler reads and writes refs; state only triggers the render.
  const [state, setState] = useState<KeyState>({ value: "", selected: 0, exitArmed: false, showReasoning: false });
  const current = useRef(state);
  const selectionAsk = useRef<string | undefined>(undefined);
  const update = (change: Partial<KeyState>): void => {
    current.current = { ...current.current, ...change };
    setState(current.current);
  };

  const answer = (askMessage: AskMessage, response: AskResponse): void => {
    host.answer(askMessage.id, response);
    update({ value: "", selected: 0 });
  };

  const handleAsk = (askMessage: AskMessage, input: string, key: Key): boolean => {
    const { value } = current.current;
    const typed = value.trim();
    if (selectionAsk.current !== askMessage.id) {
      selectionAsk.current = askMessage.id;
      update({ selected: 0 });
    }
    if (askMessage.ask === "followup") {
      const options = readFollowupMeta(askMessage.meta).options;
      const selected = current.current.selected;
      if (key.upArrow || key.downArrow) {
        const count = Math.max(1, options.length);
        update({ selected: (selected + (key.upArrow ? count - 1 : 1)) % count });
        return true;
      }
      const digit = /^[1-9]$/.test(input) && value === "" ? Number(input) - 1 : -1;
      if (digit >= 0 && digit < options.length) {
        answer(askMessage, { response: "message", text: options[digit]! });
        return true;
      }
      if (key.return) {
        const text = typed !== "" ? typed : options[selected];
        if (text !== undefined) answer(askMessage, { response: "message", text });
        return true;
      }
      return false;
    }
    // y and n answer only when nothing is typed, so a message may contain them.
    const shortcuts = value === "" && askMessage.ask !== "completion_result";
    if (shortcuts && (input === "y" || input === "Y")) {
      answer(askMessage, { response: "yes" });
      return true;
    }
    if (shortcuts && (input === "n" || input === "N")) {
      answer(askMessage, { response: "no" });
      return true;
    }
    if (key.return) {
      answer(askMessage, typed === "" ? { response: "yes" } : { response: "message", text: typed });
      return true;
    }
    return false;
  };

  useInput((input, key) => {
    const { value, exitArmed } = current.current;
    if (key.ctrl && input === "c") {
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
    const ask = host.getSnapshot().pendingAsk;
    if (key.escape) {
      if (controller.status().busy || ask !== undefined) controller.abort();
      else update({ value: "" });
      return;
    }
    if (key.tab || (key.ctrl && input === "t")) {
      controller.toggleMode();
      refresh();
      return;
    }
    if (key.ctrl && input === "o") {
      update({ showReasoning: !current.current.showReasoning });
      return;
    }
    if (ask !== undefined && handleAsk(ask, input, key)) return;
    if (key.return) {
      const typed = value.trim();
      if (typed !== "") controller.submit(typed);
      update({ value: "" });
      return;
    }
    if (key.backspace || key.delete) {
      update({ value: Array.from(value).slice(0, -1).join("") });
      return;
    }
    if (key.ctrl && input === "u") {
      update({ value: "" });
      return;
    }
    if (key.ctrl || key.meta || input === "") return;
    // A paste arrives as one input; its line breaks stay in the text.
    update({ value: value + input.replace(/\r\n?/g, "\n") });
  });

  // A new ask starts at its first option even before a key reached it.
  const askId = host.getSnapshot().pendingAsk?.id;
  return selectionAsk.current === askId ? state : { ...state, selected: 0 };
}
