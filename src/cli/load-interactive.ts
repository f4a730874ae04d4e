/**
 * Loads the terminal UI (run-interactive.ts). Ink is an ES module with top-level
 * await (yoga-layout's WebAssembly), which the CommonJS bundle of the CLI
 * (scripts/bundle.js) cannot `require()`: Ink is imported here first and left
 * in a registry, where the bundle's stand-in for "ink" finds it. From source
 * (tests, tsx) the registry is simply not read.
 */
import type * as Interactive from "./run-interactive.js";

/** The key scripts/bundle.js's stand-in module reads: `globalThis[Symbol.for(key)][packageName]`. */
export const esmOnlyRegistryKey = "cairn.esm-only";

export async function loadInteractive(): Promise<typeof Interactive> {
  const global = globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>;
  const registry = (global[Symbol.for(esmOnlyRegistryKey)] ??= {});
  registry["ink"] ??= await import("ink");
  return import("./run-interactive.js");
}
