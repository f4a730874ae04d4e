/**
 * Stack traces that name cairn's sources. The CLI runs as one bundle compiled
 * through `vm.Script` (load-bundle.ts), whose frames Node 20 does not map, even
 * with `--enable-source-maps`: a trace would point into dist/cli/main.cjs. This
 * rewrites each `main.cjs:LINE:COLUMN` of a trace to `src/….ts:LINE:COLUMN`
 * with the source map esbuild writes beside the bundle (scripts/bundle.js).
 * The map (12 MB) is read only when a trace is printed, never at start.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type StackMapper = (stack: string) => string;

/** Where the launcher lends the mapper to the bundle (src/cli/readable-stack.ts reads it). */
export const stackMapperKey = Symbol.for("cairn.readable-stack");

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A mapper for the bundle at `bundleFile`, whose map is `bundleFile.map`.
 * `firstLineShift`: how many characters the loader put before the bundle's first line.
 */
export function createStackMapper(bundleFile: string, firstLineShift = 0): StackMapper {
  let map: SourceMap | null | undefined;
  const sourceMap = (): SourceMap | null => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, "utf8")) as ConstructorParameters<typeof SourceMap>[0]);
      } catch {
        map = null; // No map (removed, or a build without one): the trace stays as it is.
      }
    }
    return map;
  };
  const position = new RegExp(`(?:file://)?${escapeRegExp(bundleFile)}:(\\d+):(\\d+)`, "g");
  const sourcePath = (source: string): string => {
    if (source.startsWith("file://")) return fileURLToPath(source);
    return isAbsolute(source) ? source : resolve(dirname(bundleFile), source);
  };
  return (stack) => {
    if (!stack.includes(bundleFile)) return stack;
    const found = sourceMap();
    if (found === null) return stack;
    return stack.replace(position, (whole, line: string, column: string) => {
      const lineIndex = Number(line) - 1;
      const columnIndex = Number(column) - 1 - (lineIndex === 0 ? firstLineShift : 0);
      const entry = found.findEntry(lineIndex, Math.max(columnIndex, 0)) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
      if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return whole;
      return `${sourcePath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
  };
}

/**
 * Lends the mapper to the bundle, and maps the trace Node prints for an error nobody
 * caught (an uncaught exception or unhandled rejection): Node prints `error.stack`
 * after the monitor has run, so the user's bug report names the sources.
 */
export function installStackMapper(mapper: StackMapper): void {
  (globalThis as Record<symbol, unknown>)[stackMapperKey] = mapper;
  process.on("uncaughtExceptionMonitor", (error) => {
    if (!(error instanceof Error) || typeof error.stack !== "string") return;
    try {
      error.stack = mapper(error.stack);
    } catch {
      // The raw trace is printed.
    }
  });
}
