/**
 * Turns the raw input events Ink's parser emits (escape sequences split out,
 * runs of plain characters kept together) into the keys the input line needs.
 * Ink's own `useInput` cannot tell Backspace from Delete, drops Home/End
 * modifiers, and gives a typed word followed by Enter as one string, so the
 * terminal UI reads the raw events itself.
 */
export type KeyName =
  | "return"
  | "newline"
  | "escape"
  | "tab"
  | "backtab"
  | "backspace"
  | "delete"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "wordLeft"
  | "wordRight"
  | "deleteWordBefore"
  | "deleteWordAfter"
  | "pasteStart"
  | "pasteEnd"
  /** The terminal got or lost the focus (focus reporting, asked for by notifications.ts). */
  | "focusIn"
  | "focusOut"
  | "unknown";

export type KeyEvent =
  | { kind: "text"; text: string }
  /** Ctrl plus a letter (`c`, `o`, `t`, `u`, `k`, `a`, `e`, `w`, ...). */
  | { kind: "ctrl"; letter: string }
  | { kind: "key"; name: KeyName };

const sequences: Record<string, KeyName> = {
  "\u001b": "escape",
  "\u001b[A": "up",
  "\u001b[B": "down",
  "\u001b[C": "right",
  "\u001b[D": "left",
  "\u001bOA": "up",
  "\u001bOB": "down",
  "\u001bOC": "right",
  "\u001bOD": "left",
  "\u001b[H": "home",
  "\u001b[F": "end",
  "\u001bOH": "home",
  "\u001bOF": "end",
  "\u001b[1~": "home",
  "\u001b[4~": "end",
  "\u001b[7~": "home",
  "\u001b[8~": "end",
  "\u001b[3~": "delete",
  "\u001b[Z": "backtab",
  "\u001b[1;5C": "wordRight",
  "\u001b[1;5D": "wordLeft",
  "\u001b[1;3C": "wordRight",
  "\u001b[1;3D": "wordLeft",
  "\u001bb": "wordLeft",
  "\u001bf": "wordRight",
  "\u001bd": "deleteWordAfter",
  "\u001b\u007f": "deleteWordBefore",
  "\u001b\b": "deleteWordBefore",
  "\u001b\r": "newline",
  "\u001b[13;2u": "newline",
  "\u001b[27;2;13~": "newline",
  "\u001b[200~": "pasteStart",
  "\u001b[201~": "pasteEnd",
  "\u001b[I": "focusIn",
  "\u001b[O": "focusOut",
};

/** Decodes one raw input event; `pasting` is true between the bracketed-paste markers. */
export function decodeInput(raw: string, pasting: boolean): KeyEvent[] {
  if (raw.startsWith("\u001b")) {
    const name = sequences[raw];
    if (name !== undefined) return [{ kind: "key", name }];
    // A Kitty-protocol or other CSI key we do not use.
    return [{ kind: "key", name: "unknown" }];
  }
  if (pasting) return [{ kind: "text", text: raw.replace(/\r\n?/g, "\n") }];
  const events: KeyEvent[] = [];
  let text = "";
  const flush = (): void => {
    if (text !== "") events.push({ kind: "text", text });
    text = "";
  };
  for (const character of raw) {
    const code = character.codePointAt(0)!;
    if (code >= 32 && code !== 127) {
      text += character;
      continue;
    }
    flush();
    if (character === "\r") events.push({ kind: "key", name: "return" });
    else if (character === "\n") events.push({ kind: "key", name: "newline" });
    else if (character === "\t") events.push({ kind: "key", name: "tab" });
    else if (character === "\u007f" || character === "\b") events.push({ kind: "key", name: "backspace" });
    else if (code >= 1 && code <= 26) events.push({ kind: "ctrl", letter: String.fromCharCode(code + 96) });
    else events.push({ kind: "key", name: "unknown" });
  }
  flush();
  return events;
}
