import { readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../test-support/source-files.js";
import { esmOnlyRegistryKey, loadInteractive, loadLayoutEngine } from "./load-interactive.js";

// In the CLI's CommonJS bundle, Ink works only once loadInteractive() has put yoga-layout
// (an ES module with top-level await) in the registry (scripts/bundle.js). These tests keep
// every way into Ink going through it.

const srcDir = fileURLToPath(new URL("..", import.meta.url));

interface Imports {
  /** Imports that run code: `import ... from`, `import "..."` (not `import type`). */
  readonly static: string[];
  /** `import("...")`. */
  readonly dynamic: string[];
}

/** Each source file's imports: relative ones as absolute .ts/.tsx paths, packages by name. */
function importGraph(): Map<string, Imports> {
  const graph = new Map<string, Imports>();
  const resolve = (file: string, specifier: string): string => {
    if (!specifier.startsWith(".")) return specifier;
    const base = normalize(join(dirname(file), specifier)).replace(/\.js$/, "");
    return [`${base}.ts`, `${base}.tsx`].find((candidate) => statSync(candidate, { throwIfNoEntry: false })) ?? base;
  };
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, "utf8");
    const statics = [...text.matchAll(/^import (?!type\b)(?:[^;]*? from )?"([^"]+)";/gms)].map((match) => resolve(file, match[1]!));
    const dynamics = [...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((match) => resolve(file, match[1]!));
    graph.set(file, { static: statics, dynamic: dynamics });
  }
  return graph;
}

describe("loadInteractive loads the terminal UI in the CommonJS bundle", () => {
  it("leaves yoga-layout in the registry the bundle's stand-in module reads, never calling fetch, and leaves fetch as it was", async () => {
    const registry = ((globalThis as unknown as Record<symbol, Record<string, { default?: { Node?: { create?: unknown } } }> | undefined>)[Symbol.for(esmOnlyRegistryKey)] ??= {});
    // Loaded again here, whatever ran before in this process.
    delete registry["yoga-layout"];
    const original = Object.getOwnPropertyDescriptor(globalThis, "fetch");
    let fetches = 0;
    const fetchSpy = (): Promise<never> => {
      fetches += 1;
      return Promise.reject(new Error("fetch must not be called"));
    };
    Object.defineProperty(globalThis, "fetch", { value: fetchSpy, configurable: true, writable: true });
    try {
      await loadLayoutEngine();
      expect(typeof registry["yoga-layout"]?.default?.Node?.create).toBe("function");
      expect(fetches).toBe(0);
      expect(globalThis.fetch).toBe(fetchSpy);
    } finally {
      if (original) Object.defineProperty(globalThis, "fetch", original);
    }
  });

  it("then loads the terminal UI", async () => {
    expect(typeof (await loadInteractive()).runInteractive).toBe("function");
  });

  it("is the only way into the modules that import Ink: nothing else imports them, statically or with import()", () => {
    const graph = importGraph();
    // The modules whose static imports reach "ink".
    const reachesInk = new Set<string>();
    let grew = true;
    while (grew) {
      grew = false;
      for (const [file, imports] of graph) {
        if (reachesInk.has(file)) continue;
        if (imports.static.some((target) => target === "ink" || reachesInk.has(target))) {
          reachesInk.add(file);
          grew = true;
        }
      }
    }
    expect(reachesInk.has(join(srcDir, "cli", "run-interactive.ts"))).toBe(true);
    const entries: string[] = [];
    for (const [file, imports] of graph) {
      if (reachesInk.has(file)) continue;
      for (const target of [...imports.static, ...imports.dynamic]) {
        if (reachesInk.has(target) || target === "ink") entries.push(`${relative(srcDir, file)} -> ${target === "ink" ? "ink" : relative(srcDir, target)}`);
      }
    }
    expect(entries.sort()).toEqual(["cli/load-interactive.ts -> cli/attach/run-attach.ts", "cli/load-interactive.ts -> cli/run-interactive.ts"]);
  });
});
