/**
 * The input line as data: text and a cursor, and the edits a shell user
 * expects (readline keys). Pure, so every edit is tested without a terminal.
 */
export interface EditorState {
  text: string;
  /** Index into `text` (0 … text.length). */
  cursor: number;
}

export const emptyEditor: EditorState = { text: "", cursor: 0 };

export function editorWith(text: string): EditorState {
  return { text, cursor: text.length };
}

export function insert(state: EditorState, addition: string): EditorState {
  return { text: state.text.slice(0, state.cursor) + addition + state.text.slice(state.cursor), cursor: state.cursor + addition.length };
}

function previousCharacterStart(text: string, index: number): number {
  if (index <= 0) return 0;
  const code = text.charCodeAt(index - 1);
  // A surrogate pair (emoji) is one character.
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1;
}

function nextCharacterEnd(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? index + 2 : index + 1;
}

export function backspace(state: EditorState): EditorState {
  if (state.cursor === 0) return state;
  const start = previousCharacterStart(state.text, state.cursor);
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function deleteForward(state: EditorState): EditorState {
  if (state.cursor >= state.text.length) return state;
  return { text: state.text.slice(0, state.cursor) + state.text.slice(nextCharacterEnd(state.text, state.cursor)), cursor: state.cursor };
}

export function left(state: EditorState): EditorState {
  return { ...state, cursor: previousCharacterStart(state.text, state.cursor) };
}

export function right(state: EditorState): EditorState {
  return { ...state, cursor: nextCharacterEnd(state.text, state.cursor) };
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf("\n", cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf("\n", cursor);
  return end === -1 ? text.length : end;
}

export function home(state: EditorState): EditorState {
  return { ...state, cursor: lineStart(state.text, state.cursor) };
}

export function end(state: EditorState): EditorState {
  return { ...state, cursor: lineEnd(state.text, state.cursor) };
}

const wordCharacter = /[\p{L}\p{N}_]/u;

function wordStartBefore(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && !wordCharacter.test(text[index - 1]!)) index -= 1;
  while (index > 0 && wordCharacter.test(text[index - 1]!)) index -= 1;
  return index;
}

function wordEndAfter(text: string, cursor: number): number {
  let index = cursor;
  while (index < text.length && !wordCharacter.test(text[index]!)) index += 1;
  while (index < text.length && wordCharacter.test(text[index]!)) index += 1;
  return index;
}

export function wordLeft(state: EditorState): EditorState {
  return { ...state, cursor: wordStartBefore(state.text, state.cursor) };
}

export function wordRight(state: EditorState): EditorState {
  return { ...state, cursor: wordEndAfter(state.text, state.cursor) };
}

/** Ctrl+W / Alt+Backspace. */
export function deleteWordBefore(state: EditorState): EditorState {
  const start = wordStartBefore(state.text, state.cursor);
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

/** Alt+D. */
export function deleteWordAfter(state: EditorState): EditorState {
  const stop = wordEndAfter(state.text, state.cursor);
  return { text: state.text.slice(0, state.cursor) + state.text.slice(stop), cursor: state.cursor };
}

/** Ctrl+U: the line up to the cursor. */
export function deleteToLineStart(state: EditorState): EditorState {
  const start = lineStart(state.text, state.cursor);
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

/** Ctrl+K: the line from the cursor. */
export function deleteToLineEnd(state: EditorState): EditorState {
  const stop = lineEnd(state.text, state.cursor);
  return { text: state.text.slice(0, state.cursor) + state.text.slice(stop), cursor: state.cursor };
}

export function onFirstLine(state: EditorState): boolean {
  return !state.text.slice(0, state.cursor).includes("\n");
}

export function onLastLine(state: EditorState): boolean {
  return !state.text.slice(state.cursor).includes("\n");
}

/** Up/Down inside multi-line text: the same column on the line above or below. */
export function verticalMove(state: EditorState, direction: "up" | "down"): EditorState {
  const start = lineStart(state.text, state.cursor);
  const column = state.cursor - start;
  if (direction === "up") {
    if (start === 0) return state;
    const previousStart = lineStart(state.text, start - 1);
    return { ...state, cursor: Math.min(previousStart + column, start - 1) };
  }
  const stop = lineEnd(state.text, state.cursor);
  if (stop >= state.text.length) return state;
  const nextStart = stop + 1;
  return { ...state, cursor: Math.min(nextStart + column, lineEnd(state.text, nextStart)) };
}

/**
 * Enter: a line ending in `\` continues on a new line (the backslash goes);
 * otherwise the text is ready to send.
 */
export function enter(state: EditorState): { kind: "send"; text: string } | { kind: "continue"; state: EditorState } {
  const before = state.text.slice(0, state.cursor);
  if (before.endsWith("\\")) {
    return { kind: "continue", state: insert({ text: before.slice(0, -1) + state.text.slice(state.cursor), cursor: state.cursor - 1 }, "\n") };
  }
  return { kind: "send", text: state.text };
}

/** Up/Down through earlier inputs, keeping what was being typed as the newest entry. */
export class InputHistoryCursor {
  private index: number;
  private draft = "";

  constructor(private readonly entries: () => readonly string[]) {
    this.index = -1;
  }

  /** Forgets the position (after a message is sent). */
  reset(): void {
    this.index = -1;
    this.draft = "";
  }

  previous(current: string): string | undefined {
    const list = this.entries();
    if (list.length === 0) return undefined;
    if (this.index === -1) {
      this.draft = current;
      this.index = list.length;
    }
    if (this.index === 0) return undefined;
    this.index -= 1;
    return list[this.index];
  }

  next(): string | undefined {
    const list = this.entries();
    if (this.index === -1) return undefined;
    this.index += 1;
    if (this.index >= list.length) {
      this.index = -1;
      return this.draft;
    }
    return list[this.index];
  }
}
