/**
 * Known secret values (the provider key, secret-looking variables, allowed
 * secrets) never leave cairn in clear: they are replaced in everything cairn
 * writes (task log, output) and sends (requests to the model).
 */

export const redactedMark = "[REDACTED]";

export class SecretRedactor {
  private readonly secrets: string[];

  constructor(secrets: Iterable<string | undefined>) {
    // Longest first, so a secret containing another is replaced whole.
    this.secrets = [...new Set([...secrets].filter((secret): secret is string => secret !== undefined && secret.length >= 8))].sort((left, right) => right.length - left.length);
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  text(value: string): string {
    let result = value;
    for (const secret of this.secrets) {
      if (result.includes(secret)) result = result.split(secret).join(redactedMark);
    }
    return result;
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
    for (const secret of this.secrets) {
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
