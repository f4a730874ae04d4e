/**
 * Reads the JSON object of a tool call's arguments while it streams, so parameters are visible
 * before the call is complete. It is incremental: each piece of text is scanned once, so the
 * total work stays linear however finely the arguments are split (a long file's content may
 * arrive in thousands of deltas). String values are shown as far as they have arrived; other
 * values (numbers, booleans, null, arrays, objects) appear once complete, JSON-encoded.
 * The final word on validity belongs to `JSON.parse` of the whole text (see `parseArguments`).
 */
type Phase = "start" | "key_or_end" | "key" | "colon" | "value" | "string_value" | "raw_value" | "comma_or_end" | "done" | "invalid";

const simpleEscapes: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const isWhitespace = (character: string): boolean => character === " " || character === "\n" || character === "\r" || character === "\t";

export class PartialJsonObjectReader {
  private phase: Phase = "start";
  private key = "";
  private stringValue = "";
  private raw = "";
  private rawDepth = 0;
  private rawInString = false;
  private rawEscape = false;
  /** Inside a key or string value: undefined, "\\" after a backslash, or "u..." while reading a \u escape. */
  private escape: string | undefined;
  private readonly values: Record<string, string> = {};

  /** Whether the text so far cannot be the start of a JSON object. */
  get invalid(): boolean {
    return this.phase === "invalid";
  }

  feed(text: string): void {
    let position = 0;
    while (position < text.length && this.phase !== "invalid") {
      if ((this.phase === "key" || this.phase === "string_value") && this.escape === undefined) {
        position = this.readStringRun(text, position);
        continue;
      }
      this.step(text.charAt(position));
      position += 1;
    }
  }

  /** Parameters as far as they are known: complete values plus the string value being read. */
  snapshot(): Record<string, string> {
    // Object.assign: a spread literal costs several times more here, and this runs on every delta.
    const copy = Object.assign({}, this.values);
    if (this.phase === "string_value") copy[this.key] = this.stringValue;
    return copy;
  }

  /** Copies a run of plain string characters at once, up to the next quote or backslash. */
  private readStringRun(text: string, start: number): number {
    let end = start;
    while (end < text.length) {
      const character = text.charAt(end);
      if (character === '"' || character === "\\") break;
      end += 1;
    }
    const run = text.slice(start, end);
    if (this.phase === "key") this.key += run;
    else this.stringValue += run;
    if (end < text.length) {
      this.step(text.charAt(end));
      return end + 1;
    }
    return end;
  }

  private appendDecoded(character: string): void {
    if (this.phase === "key") this.key += character;
    else this.stringValue += character;
  }

  private stringCharacter(character: string): void {
    if (this.escape === "\\") {
      if (character === "u") {
        this.escape = "u";
        return;
      }
      const decoded = simpleEscapes[character];
      if (decoded === undefined) {
        this.phase = "invalid";
        return;
      }
      this.appendDecoded(decoded);
      this.escape = undefined;
      return;
    }
    if (this.escape !== undefined) {
      if (!/[0-9a-fA-F]/.test(character)) {
        this.phase = "invalid";
        return;
      }
      this.escape += character;
      if (this.escape.length === 5) {
        this.appendDecoded(String.fromCharCode(Number.parseInt(this.escape.slice(1), 16)));
        this.escape = undefined;
      }
      return;
    }
    if (character === "\\") {
      this.escape = "\\";
    } else if (character === '"') {
      if (this.phase === "key") {
        // A key built by concatenation is a rope; flatten it once, not on every property write.
        this.key = this.key.length < 64 ? this.key.split("").join("") : this.key;
        this.phase = "colon";
      } else {
        this.values[this.key] = this.stringValue;
        this.phase = "comma_or_end";
      }
    } else {
      this.appendDecoded(character);
    }
  }

  private finishRaw(): boolean {
    try {
      const value: unknown = JSON.parse(this.raw);
      this.values[this.key] = typeof value === "string" ? value : JSON.stringify(value);
      return true;
    } catch {
      this.phase = "invalid";
      return false;
    }
  }

  private rawCharacter(character: string): void {
    if (this.rawInString) {
      this.raw += character;
      if (this.rawEscape) this.rawEscape = false;
      else if (character === "\\") this.rawEscape = true;
      else if (character === '"') this.rawInString = false;
      return;
    }
    if (this.rawDepth === 0 && (character === "," || character === "}")) {
      if (!this.finishRaw()) return;
      this.phase = character === "," ? "key_or_end" : "done";
      return;
    }
    this.raw += character;
    if (character === '"') this.rawInString = true;
    else if (character === "{" || character === "[") this.rawDepth += 1;
    else if (character === "}" || character === "]") {
      this.rawDepth -= 1;
      if (this.rawDepth < 0) this.phase = "invalid";
    }
  }

  private step(character: string): void {
    switch (this.phase) {
      case "key":
      case "string_value":
        this.stringCharacter(character);
        return;
      case "raw_value":
        this.rawCharacter(character);
        return;
      case "done":
        if (!isWhitespace(character)) this.phase = "invalid";
        return;
      case "invalid":
        return;
      default:
        break;
    }
    if (isWhitespace(character)) return;
    switch (this.phase) {
      case "start":
        this.phase = character === "{" ? "key_or_end" : "invalid";
        return;
      case "key_or_end":
        if (character === '"') {
          this.key = "";
          this.phase = "key";
        } else {
          this.phase = character === "}" ? "done" : "invalid";
        }
        return;
      case "colon":
        this.phase = character === ":" ? "value" : "invalid";
        return;
      case "value":
        if (character === '"') {
          this.stringValue = "";
          this.phase = "string_value";
        } else {
          this.raw = "";
          this.rawDepth = 0;
          this.rawInString = false;
          this.rawEscape = false;
          this.phase = "raw_value";
          this.rawCharacter(character);
        }
        return;
      case "comma_or_end":
        if (character === ",") this.phase = "key_or_end";
        else this.phase = character === "}" ? "done" : "invalid";
        return;
      default:
        return;
    }
  }
}

export type ParsedArguments = { valid: true; input: Record<string, unknown> } | { valid: false; raw: string };

/** The complete arguments text as an object; empty text means no arguments. */
export function parseArguments(text: string): ParsedArguments {
  if (text.trim() === "") return { valid: true, input: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { valid: true, input: value as Record<string, unknown> };
    }
  } catch {
    // reported below
  }
  return { valid: false, raw: text };
}

/** Tool parameters as the parser gives them: strings as they are, anything else JSON-encoded. */
export function toStringParams(input: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) params[key] = typeof value === "string" ? value : JSON.stringify(value);
  return params;
}
