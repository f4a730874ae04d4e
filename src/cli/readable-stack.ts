/**
 * An error's stack trace as the user should see it: `bin/cairn`'s launcher lends a
 * mapper that turns positions in the CLI bundle into cairn's sources
 * (src/launch/readable-stack.ts); without it (tests run the sources) the stack is
 * printed as it is.
 */
const stackMapperKey = Symbol.for("cairn.readable-stack");

export function readableStack(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const stack = error.stack ?? `${error.name}: ${error.message}`;
  const mapper = (globalThis as Record<symbol, unknown>)[stackMapperKey];
  if (typeof mapper !== "function") return stack;
  try {
    return (mapper as (stack: string) => string)(stack);
  } catch {
    return stack;
  }
}

/** `CAIRN_DEBUG=1`: an error that ends a command prints its stack trace as well. */
export function debugRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env["CAIRN_DEBUG"];
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}
