/**
 * Values that grow by appending. A value fed in many small pieces costs time
 * linear in its length (SPEC P-perf-1): pieces are joined with `+`, which V8
 * does without copying (a rope), and the part built so far is never read
 * again here, so it is never copied here either.
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

  get isEmpty(): boolean {
    return this.body.length === 0;
  }
}

type Leading =
  | { kind: "undecided"; seen: "" | "\r" }
  | { kind: "decided" };

/**
 * A `content` or `diff` value: exactly one leading and one trailing newline
 * (`\n` or `\r\n`) are removed and every other character is kept (rule 4).
 * The newest piece is kept whole in `last` (pieces are usually the caller's
 * chunks, so nothing is copied); only its end can hold the trailing newline.
 */
export class VerbatimValue implements GrowingValue {
  private leading: Leading = { kind: "undecided", seen: "" };
  /** Raw characters before `last`. */
  private body = "";
  /** The newest raw characters; at least two of them unless `body` is empty. */
  private last = "";
  /** `body + last` once built for showing, reused as the next body so each push builds one string. */
  private whole: string | undefined;

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
      piece = skip === 0 ? raw : raw.slice(skip);
      if (piece.length === 0) return;
    }
    if (piece.length >= 2) {
      this.body = this.whole ?? this.body + this.last;
      this.last = piece;
    } else {
      this.last += piece;
    }
    this.whole = undefined;
  }

  get value(): string {
    if (this.leading.kind === "undecided") return this.leading.seen;
    const last = this.last;
    const end = last.length;
    // Newline code units: 10 is "\n", 13 is "\r".
    if (end >= 1 && last.charCodeAt(end - 1) === 10) {
      const cut = end >= 2 && last.charCodeAt(end - 2) === 13 ? 2 : 1;
      return this.body + last.slice(0, end - cut);
    }
    this.whole ??= this.body + last;
    return this.whole;
  }
}
