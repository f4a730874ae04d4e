import { inspect } from "node:util";

/**
 * An API key that cannot leak by accident: printing, logging, `JSON.stringify`
 * and `util.inspect` all show a masked form. Only `reveal()` gives the value,
 * and only the code that hands it to a provider SDK should call it.
 */
export class SecretValue {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  /** `****abcd` for a long key; short keys show nothing of themselves. */
  masked(): string {
    return maskSecret(this.#value);
  }

  toString(): string {
    return this.masked();
  }

  toJSON(): string {
    return this.masked();
  }

  [inspect.custom](): string {
    return `SecretValue(${this.masked()})`;
  }
}

/** Shows the last four characters only when the key is long enough that they give nothing away. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `****${value.slice(-4)}` : "****";
}
