/**
 * Values that grow by appending. A value fed in many small pieces costs time
 * linear in its length (SPEC P-perf-1), and each push builds the value so far
 * in constant time.
 */

/** The characters String.prototype.trim removes (all in the BMP). */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** How many characters of small pieces are kept before they are joined into one string. */
const JOIN_EVERY = 2048;

/**
 * A string built by appending. `+` on strings makes a rope in V8 (no copy),
 * so the whole is always one `+` away; but a rope of thousands of 16-character
 * pieces is thousands of objects the garbage collector must copy on every
 * young-generation collection, which made a 4 MB value cost far more than four
 * 1 MB values. So every JOIN_EVERY characters the recent rope is flattened into
 * one flat string: each character is copied once, and few objects stay alive.
 * The whole string is built when it is read and kept until the next append, so
 * a builder read after every append (the parser's values, shown after every
 * push) and one read once at the end both pay one rope node per append and
 * per read at most.
 */
export class StringBuilder {
  /** Flat strings of about JOIN_EVERY characters each, as a rope. */
  private joined = "";
  /** The pieces since the last flattening, as a rope. */
  private recent = "";
  /** `joined + recent` as last read, or undefined when an append came since. */
  private whole: string | undefined = "";

  append(piece: string): void {
    if (piece.length === 0) return;
    this.recent += piece;
    this.whole = undefined;
    if (this.recent.length >= JOIN_EVERY) this.flatten();
  }

  /** Flattens the recent pieces now: a finished value is then a few strings, not a rope of hundreds. */
  flatten(): void {
    if (this.recent.length === 0) return;
    // Reading a character makes V8 flatten the rope in place (one copy in native code). It measured
    // about twice as fast as keeping the pieces in an array and joining them, and needs no array.
    this.recent.charCodeAt(0);
    this.joined += this.recent;
    this.recent = "";
    this.whole = this.joined;
  }

  get length(): number {
    return this.joined.length + this.recent.length;
  }

  clear(): void {
    this.joined = "";
    this.recent = "";
    this.whole = "";
  }

  toString(): string {
    // Most values never reach JOIN_EVERY: reading them then allocates nothing.
    if (this.joined.length === 0) return this.recent;
    return (this.whole ??= this.joined + this.recent);
  }
}

export interface GrowingValue {
  append(piece: string): void;
  /** The value so far, as the rules want it shown. */
  readonly value: string;
  /** The value so far, stored compactly because it is kept (it may still grow). */
  settledValue(): string;
}

/**
 * A value shown trimmed at both ends: text blocks and ordinary parameters.
 * Pieces go into `raw` whole, whitespace included, so a push costs one append
 * whatever its last character; only while the value ends with whitespace is
 * the shown value another string (the value before that whitespace).
 */
export class TrimmedValue implements GrowingValue {
  /** Empty, or the pieces from the first non-whitespace character on. */
  private readonly raw = new StringBuilder();
  /** How many whitespace characters end `raw`: they are not shown until something else follows them. */
  private trailing = 0;
  /** `raw` without its trailing whitespace, while it has some. */
  private trimmed = "";

  append(piece: string): void {
    const end = piece.length;
    // Most pieces of a non-empty value end with a non-whitespace character: one append, no slicing.
    if (end !== 0 && this.raw.length !== 0 && !isWhitespace(piece.charCodeAt(end - 1))) {
      this.raw.append(piece);
      if (this.trailing !== 0) {
        // The pieces that string is made of are garbage now: let them go.
        this.trailing = 0;
        this.trimmed = "";
      }
    } else if (end !== 0) {
      this.appendWithWhitespace(piece);
    }
  }

  private appendWithWhitespace(piece: string): void {
    let last = piece.length - 1;
    while (last >= 0 && isWhitespace(piece.charCodeAt(last))) last -= 1;
    if (this.raw.length === 0) {
      // Leading whitespace is never shown.
      if (last < 0) return;
      let first = 0;
      while (isWhitespace(piece.charCodeAt(first))) first += 1;
      if (first !== 0) {
        piece = piece.slice(first);
        last -= first;
      }
    } else if (last < 0) {
      // Only whitespace: what is shown does not change.
      if (this.trailing === 0) this.trimmed = this.raw.toString();
      this.trailing += piece.length;
      this.raw.append(piece);
      return;
    }
    const trailing = piece.length - 1 - last;
    this.trimmed = trailing === 0 ? "" : this.raw.toString() + piece.slice(0, last + 1);
    this.trailing = trailing;
    this.raw.append(piece);
  }

  get value(): string {
    return this.trailing === 0 ? this.raw.toString() : this.trimmed;
  }

  settledValue(): string {
    this.raw.flatten();
    if (this.trailing === 0) return this.raw.toString();
    // The flat string without its trailing whitespace, rather than a rope of the pieces before it.
    const raw = this.raw.toString();
    this.trimmed = raw.slice(0, raw.length - this.trailing);
    return this.trimmed;
  }

  get isEmpty(): boolean {
    return this.raw.length === 0;
  }
}

type Leading = { kind: "undecided"; seen: "" | "\r" } | { kind: "decided" };

/** Code units of the line endings. */
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;

/**
 * A `content` or `diff` value: exactly one leading and one trailing newline
 * (`\n` or `\r\n`) are removed and every other character is kept (rule 4).
 * Raw characters go straight into `body`, except a line ending at the very end,
 * which waits in `tail` because it is cut while nothing follows it. So after a
 * push the value is `body` as it stands (no copy, no new string), and only a
 * piece that ends in a line ending costs a slice.
 */
export class VerbatimValue implements GrowingValue {
  private leading: Leading = { kind: "undecided", seen: "" };
  /** Raw characters, but for the line ending at the end. */
  private readonly body = new StringBuilder();
  /** The raw line ending at the end: "\n" or "\r\n" (cut from the value), or "\r" (shown: it may still become "\r\n"). */
  private tail: "" | "\n" | "\r\n" | "\r" = "";

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
    const end = piece.length;
    const lastCode = piece.charCodeAt(end - 1);
    if (lastCode !== LINE_FEED && lastCode !== CARRIAGE_RETURN) {
      if (this.tail.length !== 0) {
        this.body.append(this.tail);
        this.tail = "";
      }
      this.body.append(piece);
      return;
    }
    if (lastCode === CARRIAGE_RETURN) {
      this.body.append(this.tail);
      this.body.append(piece.slice(0, end - 1));
      this.tail = "\r";
      return;
    }
    if (end === 1 && this.tail === "\r") {
      // "\r" then "\n" across two pieces: one line ending.
      this.tail = "\r\n";
      return;
    }
    const cut = end >= 2 && piece.charCodeAt(end - 2) === CARRIAGE_RETURN ? 2 : 1;
    this.body.append(this.tail);
    this.body.append(piece.slice(0, end - cut));
    this.tail = cut === 2 ? "\r\n" : "\n";
  }

  get value(): string {
    if (this.leading.kind === "undecided") return this.leading.seen;
    return this.tail === "\r" ? this.body.toString() + "\r" : this.body.toString();
  }

  settledValue(): string {
    this.body.flatten();
    return this.value;
  }
}
