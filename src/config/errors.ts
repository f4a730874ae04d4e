/**
 * A setting is wrong or missing. The CLI prints the message as is and exits with
 * status 2, so the message must say what to fix.
 */
export class ConfigError extends Error {
  readonly exitCode = 2;

  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
