/**
 * Known secret values (the provider key, secret-looking variables, allowed
 * secrets) never leave cairn in clear: they are replaced in everything cairn
 * writes (task log, output) and sends (requests to the model).
 *
 * This is defence in depth, not the protection itself: commands and hooks never
 * get the secrets in their environment (child-environment.ts), so a model
 * cannot read them to begin with. Redaction catches a known value that shows up
 * anyway, as it is and in the cheap disguises a leak would use: reversed, in
 * hexadecimal, in base64 (standard and URL-safe, at each of the three byte
 * alignments it can have inside a longer encoded text). A secret transformed
 * any other way (split, shifted, encrypted) is not recognised.
 */

export const redactedMark = "[REDACTED]";

/** Shorter values would redact ordinary words. */
const minimumSecretLength = 8;

/** The forms of one secret that are recognised: itself, reversed, hex, base64. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = [secret, [...secret].reverse().join(""), bytes.toString("hex"), bytes.toString("hex").toUpperCase()];
  for (let offset = 0; offset < 3; offset += 1) {
    // Inside a longer base64 text the secret may start at any of the 3 bytes of a group: the characters
    // that depend on the secret's bytes alone are the same whatever comes before and after it.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const skip = [0, 2, 3][offset] ?? 0;
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : encoded.length - 1;
    const core = encoded.slice(skip, end);
    forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

export class SecretRedactor {
  /** Every form of every secret, longest first. */
  private readonly patterns: string[];

  constructor(secrets: Iterable<string | undefined>) {
    const values = [...secrets].filter((secret): secret is string => secret !== undefined && secret.length >= minimumSecretLength);
    const forms = values.flatMap(secretForms).filter((form) => form.length >= minimumSecretLength);
    this.patterns = [...new Set(forms)].sort((left, right) => right.length - left.length);
  }

  get active(): boolean {
    return this.patterns.length > 0;
  }

  /**
   * Every place any form of a secret occupies is found in the original text first, and the
   * places that overlap become one mark: a secret containing another, or two secrets that
   * overlap, are redacted whole (replacing one after the other would leave a piece of the second).
   */
  text(value: string): string {
    let ranges: Array<{ start: number; end: number }> | undefined;
    for (const pattern of this.patterns) {
      let at = value.indexOf(pattern);
      while (at !== -1) {
        (ranges ??= []).push({ start: at, end: at + pattern.length });
        at = value.indexOf(pattern, at + 1);
      }
    }
    if (ranges === undefined) return value;
    ranges.sort((left, right) => left.start - right.start);
    let result = "";
    let copied = 0;
    let open: { start: number; end: number } | undefined;
    for (const range of ranges) {
      if (open !== undefined && range.start < open.end) {
        open.end = Math.max(open.end, range.end);
        continue;
      }
      if (open !== undefined) {
        result += value.slice(copied, open.start) + redactedMark;
        copied = open.end;
      }
      open = { ...range };
    }
    if (open !== undefined) {
      result += value.slice(copied, open.start) + redactedMark;
      copied = open.end;
    }
    return result + value.slice(copied);
  }

  /** A copy with every string inside redacted (objects and arrays walked; other values kept). */
  deep<T>(value: T): T {
    if (!this.active) return value;
    return this.walk(value) as T;
  }

  /**
   * The text of a message still arriving, redacted, without its end when that
   * end could be the start of a secret: a secret streamed in two pieces is
   * never shown in part (#18). The held-back end comes with the next update,
   * whole or as [REDACTED], and a final message is never cut.
   */
  partialText(value: string): string {
    return this.withoutSecretStart(this.text(value));
  }

  private withoutSecretStart(redacted: string): string {
    const held = this.secretStartLength(redacted);
    return held === 0 ? redacted : redacted.slice(0, redacted.length - held);
  }

  /** The length of the longest end of `value` that is the start of a secret (0: none). */
  private secretStartLength(value: string): number {
    let longest = 0;
    for (const secret of this.patterns) {
      const first = secret[0];
      if (first === undefined) continue;
      // Only the last (secret length - 1) characters can start a secret not yet whole.
      let position = value.indexOf(first, Math.max(0, value.length - secret.length + 1));
      while (position !== -1 && value.length - position > longest) {
        if (secret.startsWith(value.slice(position))) {
          longest = value.length - position;
          break;
        }
        position = value.indexOf(first, position + 1);
      }
    }
    return longest;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) result[key] = this.walk(item);
      // A UI message still arriving: its text may end in the first piece of a secret.
      if (isPartialUiMessage(result)) result["text"] = this.withoutSecretStart(result["text"]);
      return result;
    }
    return value;
  }
}

function isPartialUiMessage(value: Record<string, unknown>): value is Record<string, unknown> & { text: string } {
  return value["partial"] === true && typeof value["text"] === "string" && typeof value["id"] === "string" && (value["type"] === "say" || value["type"] === "ask");
}
