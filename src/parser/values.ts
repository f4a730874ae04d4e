/**
 * Values that grow by appending. Long values are built with string
 * concatenation only (V8 keeps them as ropes), and the already-built part is
 * never read again, so a value fed in many small pieces costs time linear in
 * its length (SPEC P-perf-1).
 */

/** The characters String.prototype.trim removes (all in the BMP). */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export interface GrowingValue {
  append(piece: string): void;
  /** The value so far, as the rules want it shown. */
  readonly value: string;
}

/** A value shown trimmed at both ends: text blocks and ordinary parameters. */
export class TrimmedValue implements GrowingValue {
  /** Empty, or starts and ends with a non-whitespace character. */
  private body = "";
  /** Whitespace after the body, kept back until something else follows it. */
  private whitespace = "";

  append(piece: string): void {
    let last = piece.length - 1;
    while (last >= 0 && isWhitespace(piece.charCodeAt(last))) last -= 1;
    if (last < 0) {
      if (this.body.length > 0) this.whitespace += piece;
      return;
    }
    if (this.body.length === 0) {
      let first = 0;
      while (isWhitespace(piece.charCodeAt(first))) first += 1;
      this.body = piece.slice(first, last + 1);
    } else {
      this.body += this.whitespace + piece.slice(0, last + 1);
    }
    this.whitespace = piece.slice(last + 1);
  }

  get value(): string {
    return this.body;
  }
}

type Leading =
  | { kind: "undecided"; seen: "" | "\r" }
  | { kind: "decided" };

/**
 * A `content` or `diff` value: exactly one leading and one trailing newline
 * (`\n` or `\r\n`) are removed and every other character is kept (rule 4).
 */
export class VerbatimValue implements GrowingValue {
  private leading: Leading = { kind: "undecided", seen: "" };
  /** Raw characters known to be inside the value. */
  private body = "";
  /** The last (at most two) raw characters, which may be the trailing newline. */
  private tail = "";

  append(piece: string): void {
    if (piece.length === 0) return;
    if (this.leading.kind === "undecided") {
      const raw = this.leading.seen + piece;
      // A lone "\r" may still become "\r\n": wait for the next character.
      if (raw === "\r") {
        this.leading = { kind: "undecided", seen: "\r" };
        return;
      }
      this.leading = { kind: "decided" };
      const skip = raw.startsWith("\r\n") ? 2 : raw.startsWith("\n") ? 1 : 0;
      piece = raw.slice(skip);
      if (piece.length === 0) return;
    }
    const combined = this.tail + piece;
    const cut = Math.max(0, combined.length - 2);
    this.body += combined.slice(0, cut);
    this.tail = combined.slice(cut);
  }

  get value(): string {
    if (this.leading.kind === "undecided") return this.leading.seen;
    const tail = this.tail;
    if (tail.endsWith("\r\n")) return this.body;
    if (tail.endsWith("\n")) return this.body + tail.slice(0, -1);
    return this.body + tail;
  }
}
