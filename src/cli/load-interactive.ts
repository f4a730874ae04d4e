/**
 * Loads the terminal UI (run-interactive.ts). The CLI's CommonJS bundle
 * (scripts/bundle.js) holds Ink and React, but Ink imports yoga-layout, its
 * layout engine, as an ES module with top-level await (its WebAssembly), which
 * CommonJS cannot `require()`. The engine is loaded here first, awaited, and left
 * in a registry, where the bundle's stand-in for "yoga-layout" finds it. From source (tests, tsx)
 * the registry is simply not read.
 */
import type * as Interactive from "./run-interactive.js";
import type * as Attach from "./attach/run-attach.js";

/** The key scripts/bundle.js's stand-in module reads: `globalThis[Symbol.for(key)][packageName]`. */
export const esmOnlyRegistryKey = "cairn.esm-only";

/**
 * yoga-layout's loader reads its WebAssembly (inlined as a data: URL) with
 * `fetch` when there is one, and Node's first `fetch` loads undici: 50 ms
 * before the UI could draw. Without `fetch` the loader decodes it in place.
 * The global's descriptor is set aside and put back as it was, so `fetch`
 * itself is not loaded by this either.
 */
async function withoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (descriptor?.configurable !== true) return load();
  Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, "fetch", descriptor);
  }
}

/**
 * Puts Ink's layout engine in the registry, once. `yoga-layout/load` is the same engine
 * without the top-level await, so the bundle holds it: no ES module loader starts for it.
 */
export async function loadLayoutEngine(): Promise<void> {
  const global = globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>;
  const registry = (global[Symbol.for(esmOnlyRegistryKey)] ??= {});
  registry["yoga-layout"] ??= { default: await withoutFetch(async () => (await import("yoga-layout/load")).loadYoga()) };
}

export async function loadInteractive(): Promise<typeof Interactive> {
  await loadLayoutEngine();
  return import("./run-interactive.js");
}

/** `cairn attach`: the same terminal UI, attached to a task of `cairn serve` (src/cli/attach/run-attach.ts). */
export async function loadAttach(): Promise<typeof Attach> {
  await loadLayoutEngine();
  return import("./attach/run-attach.js");
}
