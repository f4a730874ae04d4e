/**
 * Text from the model or from a command, made harmless to print on a
 * terminal. An escape sequence in such text is an instruction to the user's
 * terminal: OSC 52 writes the clipboard, OSC 0/2 set the window title, CSI
 * moves the cursor or clears the screen, DCS/APC/PM talk to the terminal
 * itself. None of them may reach it: every escape sequence (colours too: one
 * rule, no exceptions to audit), every C1 control and every C0 control but
 * newline and tab is removed, and a carriage return that does not end a line
 * becomes a line break, so nothing printed can overwrite what was printed
 * before it. The JSON output keeps the data intact (JSON escapes it); the
 * task log keeps what was said.
 */

/** A string sequence (OSC, DCS, APC, PM, SOS) longer than this without its terminator is not taken as one. */
const maximumStringSequence = 4096;

const escape = 0x1b;
const bell = 0x07;
const c1StringTerminator = 0x9c;

export interface NeutralizeOptions {
  /**
   * The text is still growing: an escape sequence (or a carriage return) cut
   * by its end is held back, so that the next update removes it whole. The
   * result for a text is then always a prefix of the result for its longer
   * versions, and a printer can print only what is new.
   */
  partial?: boolean;
  /** "keep": carriage returns stay (a layout that handles them itself, the TUI); default: a lone one becomes a line break. */
  carriageReturns?: "keep" | "newline";
}

/** Where an escape sequence starting at `start` ends (exclusive), or "incomplete" when the text ends first. */
type SequenceEnd = number | "incomplete";

function isStringIntroducer(code: number): boolean {
  // ESC ] (OSC), ESC P (DCS), ESC _ (APC), ESC ^ (PM), ESC X (SOS).
  return code === 0x5d || code === 0x50 || code === 0x5f || code === 0x5e || code === 0x58;
}

function isC1StringIntroducer(code: number): boolean {
  return code === 0x9d || code === 0x90 || code === 0x9f || code === 0x9e || code === 0x98;
}

/**
 * The end of a control string whose body starts at `bodyStart`: after BEL, ESC \ or
 * the C1 string terminator; "incomplete" when the text ends within the limit; the
 * body start itself when no terminator comes within the limit (then only the
 * introducer is dropped and the rest shows as text).
 */
function stringSequenceEnd(text: string, bodyStart: number): SequenceEnd {
  const limit = Math.min(text.length, bodyStart + maximumStringSequence);
  for (let index = bodyStart; index < limit; index += 1) {
    const code = text.charCodeAt(index);
    if (code === bell || code === c1StringTerminator) return index + 1;
    if (code === escape) {
      if (index + 1 >= text.length) return "incomplete";
      if (text.charCodeAt(index + 1) === 0x5c) return index + 2;
    }
  }
  return limit === text.length && text.length < bodyStart + maximumStringSequence ? "incomplete" : bodyStart;
}

/** The end of a control sequence (CSI) whose parameters start at `bodyStart`. */
function controlSequenceEnd(text: string, bodyStart: number): SequenceEnd {
  for (let index = bodyStart; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, then one final byte 0x40-0x7E.
    if (code >= 0x20 && code <= 0x3f) continue;
    if (code >= 0x40 && code <= 0x7e) return index + 1;
    // Anything else ends a malformed sequence there; that character is judged on its own.
    return index;
  }
  return "incomplete";
}

/** The end of the sequence an ESC at `start` introduces. */
function escapeSequenceEnd(text: string, start: number): SequenceEnd {
  if (start + 1 >= text.length) return "incomplete";
  const next = text.charCodeAt(start + 1);
  if (next === 0x5b) return controlSequenceEnd(text, start + 2);
  if (isStringIntroducer(next)) return stringSequenceEnd(text, start + 2);
  // ESC, intermediate bytes (0x20-0x2F), one final byte (0x30-0x7E): ESC 7, ESC c, ESC ( B ...
  let index = start + 1;
  while (index < text.length && text.charCodeAt(index) >= 0x20 && text.charCodeAt(index) <= 0x2f) index += 1;
  if (index >= text.length) return "incomplete";
  const final = text.charCodeAt(index);
  return final >= 0x30 && final <= 0x7e ? index + 1 : start + 1;
}

function sequenceEnd(text: string, start: number, code: number): SequenceEnd {
  if (code === escape) return escapeSequenceEnd(text, start);
  if (code === 0x9b) return controlSequenceEnd(text, start + 1);
  if (isC1StringIntroducer(code)) return stringSequenceEnd(text, start + 1);
  return start + 1;
}

// Quick test: only text holding a control character needs the scan.
const controlCharacter = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Whether `text` holds a character `neutralizeControls` would remove or change. */
export function hasControls(text: string): boolean {
  return controlCharacter.test(text);
}

/** `text` without escape sequences and control characters (newline and tab kept). */
export function neutralizeControls(text: string, options: NeutralizeOptions = {}): string {
  if (!hasControls(text)) return text;
  const keepCarriageReturns = options.carriageReturns === "keep";
  let result = "";
  let copiedFrom = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const isControl = code < 0x20 ? code !== 0x0a && code !== 0x09 : code >= 0x7f && code <= 0x9f;
    if (!isControl) {
      index += 1;
      continue;
    }
    result += text.slice(copiedFrom, index);
    if (code === 0x0d) {
      if (index + 1 >= text.length && options.partial === true) return result;
      if (keepCarriageReturns) result += "\r";
      // CR LF is one line end; a lone CR would overwrite the line: it starts a new one instead.
      else if (text.charCodeAt(index + 1) !== 0x0a) result += "\n";
      index += 1;
      copiedFrom = index;
      continue;
    }
    const end = sequenceEnd(text, index, code);
    if (end === "incomplete") {
      if (options.partial === true) return result;
      // A final text cut inside a sequence: drop the introducer, show the rest as text.
      index += code === escape ? Math.min(2, text.length - index) : 1;
    } else {
      index = end === index ? index + 1 : end;
    }
    copiedFrom = index;
  }
  return result + text.slice(copiedFrom);
}

/** Every string inside `value` (objects and arrays walked) neutralized; other values kept. */
export function neutralizeDeep<T>(value: T, options: NeutralizeOptions = {}): T {
  return walk(value, { carriageReturns: options.carriageReturns ?? "newline" }) as T;
}

function walk(value: unknown, options: NeutralizeOptions): unknown {
  if (typeof value === "string") return neutralizeControls(value, options);
  if (Array.isArray(value)) return value.map((item) => walk(item, options));
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = walk(item, options);
    return result;
  }
  return value;
}

// DEL and C1 controls: JSON.stringify leaves them as they are.
const unescapedInJson = /[\u007f-\u009f]/g;

/**
 * JSON text with DEL and the C1 controls written as `\u009b` escapes: the same
 * data for any JSON reader, and nothing a terminal showing the line would obey
 * (JSON.stringify already escapes ESC and the other C0 controls).
 */
export function escapeControlsInJson(json: string): string {
  return json.replace(unescapedInJson, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
