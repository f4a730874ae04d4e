import { afterEach, beforeEach } from "vitest";

/**
 * Registers the hooks in the calling test file: `create` makes a fresh value
 * before each test and `dispose` ends it after. The returned function gives
 * the current test's value, and throws outside a test (`what` names it then).
 */
export function usePerTest<T>(what: string, create: () => Promise<T>, dispose: (value: T) => Promise<void>): () => T {
  let current: { value: T } | undefined;
  beforeEach(async () => {
    current = { value: await create() };
  });
  afterEach(async () => {
    const ended = current;
    current = undefined;
    if (ended !== undefined) await dispose(ended.value);
  });
  return () => {
    if (current === undefined) throw new Error(`${what} exists only while a test runs`);
    return current.value;
  };
}
