/**
 * Text from the model shown to the person who approves it. A carriage return,
 * a bidi override or a Unicode tag character can make `touch x; git status`
 * look like `git status`: every such character is shown escaped, and the text
 * is flagged so the person knows something was hidden.
 */

/** Controls (except newline and tab), zero-width and bidi marks, separators, BOM, tag characters. */
const hidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;

const names: Record<string, string> = { "\r": "\\r", "\u0000": "\\0", "\u001b": "\\e", "\u000b": "\\v", "\u000c": "\\f", "\b": "\\b" };

function codeName(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

export interface EscapedText {
  text: string;
  /** The hidden characters found, as `U+XXXX`, each once. */
  hidden: string[];
}

export function escapeHidden(text: string, options: { keepLineEndings?: boolean } = {}): EscapedText {
  const found = new Set<string>();
  const escaped = text.replace(hidden, (character, offset: number) => {
    // Files with Windows line endings: a CR right before LF hides nothing.
    if (options.keepLineEndings === true && character === "\r" && text[offset + 1] === "\n") return character;
    found.add(codeName(character));
    return names[character] ?? `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  });
  return { text: escaped, hidden: [...found] };
}

export function hiddenWarning(found: string[]): string {
  return `⚠ contains hidden or control characters (${found.join(", ")}), shown escaped: what runs is exactly the text above`;
}

/** The text escaped, with a warning line under it when anything was hidden. */
export function flagHidden(text: string): { text: string; hidden: string[] } {
  const escaped = escapeHidden(text);
  if (escaped.hidden.length === 0) return escaped;
  return { text: `${escaped.text}\n${hiddenWarning(escaped.hidden)}`, hidden: escaped.hidden };
}

/** Escapes every string value of a message's meta (paths, commands) the same way; the meta keeps its declared type. */
export function escapeMetaStrings<T extends object>(meta: T): T {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    result[key] = typeof value === "string" ? escapeHidden(value, { keepLineEndings: key === "diff" || key === "content" }).text : value;
  }
  // Same keys, and every string is still a string (tool names have nothing to escape).
  return result as T;
}
