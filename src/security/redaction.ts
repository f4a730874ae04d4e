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

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) result[key] = this.walk(item);
      return result;
    }
    return value;
  }
}
