/**
 * Loads the CLI's CommonJS bundle (dist/cli/main.cjs) with a V8 code cache
 * (issue 18: start-up). Node 20 keeps no compiled code between runs for ES
 * modules, and compiling cairn's JavaScript was most of what a start cost above
 * the SDK's own: a `vm.Script` takes the code V8 compiled in an earlier run
 * (`cachedData`) and compiles nothing it finds there, neither the top level nor
 * the functions that run had compiled by the time it wrote the cache.
 *
 * One cache file per bundle file, build, Node version, architecture and
 * variant (the command: `run` compiles other functions than the terminal UI).
 * It is written when there was none or V8 rejected it, late in the run
 * (`saveCodeCache`), so it holds what the run compiled; files of the same
 * bundle file and variant from other builds are removed then. A failure to
 * read or write the cache only costs speed: the bundle compiles from source.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

export interface BundleOptions {
  /** Absolute path of the CommonJS bundle. */
  readonly file: string;
  /** The folder of cache files; undefined: no cache. */
  readonly cacheDir: string | undefined;
  /** Which cache: a name made of letters, digits and dashes. */
  readonly variant: string;
}

export interface LoadedBundle {
  /** What the bundle put on `module.exports`. */
  readonly exports: Record<string, unknown>;
  /** Whether V8 took the cached code (false on a build's first run, or when the cache did not fit). */
  readonly usedCache: boolean;
  /** Writes the cache when there was none or it was rejected; never throws. Call it late: it holds only what has been compiled by then. */
  saveCodeCache(): void;
}

/**
 * The cache files of one bundle file and variant start alike, whatever the build:
 * two installations of cairn sharing a data folder keep a cache each.
 */
function cachePrefix(options: BundleOptions): string {
  // FNV-1a of the bundle's path: short, stable, and no crypto module to load at start.
  let hash = 0x811c9dc5;
  for (let index = 0; index < options.file.length; index += 1) hash = Math.imul(hash ^ options.file.charCodeAt(index), 0x01000193) >>> 0;
  return `bundle-${options.variant}-${hash.toString(16).padStart(8, "0")}-`;
}

function readCache(path: string | undefined): Buffer | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file, so a concurrent start never reads half a cache; older builds' files of the same bundle and variant go. */
function writeCache(cacheDir: string, name: string, prefix: string, data: Buffer): void {
  const temporary = join(cacheDir, `${name}.${process.pid}.tmp`);
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, join(cacheDir, name));
    for (const entry of readdirSync(cacheDir)) {
      if (entry !== name && entry.startsWith(prefix) && entry.endsWith(".bin")) rmSync(join(cacheDir, entry), { force: true });
    }
  } catch {
    // A read-only or full data folder: the next start compiles from source. No half-written file stays.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing more to do.
    }
  }
}

export function loadBundle(options: BundleOptions): LoadedBundle {
  if (!/^[a-z0-9-]+$/.test(options.variant)) throw new Error(`loadBundle: variant "${options.variant}" must be letters, digits and dashes`);
  // The bundle is ASCII (scripts/bundle.js escapes the rest): latin1 reads it exactly, without UTF-8 decoding.
  const source = readFileSync(options.file, "latin1");
  const { size, mtimeMs } = statSync(options.file);
  // A new build (size or time changed) or another Node gets another file.
  const prefix = cachePrefix(options);
  const name = `${prefix}${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}.bin`;
  const cachedData = readCache(options.cacheDir === undefined ? undefined : join(options.cacheDir, name));
  // The wrapper keeps the bundle's first line first, so line numbers in stack traces match the file.
  // `__impt` is the bundle's import() of packages (scripts/bundle.js renames it): a vm.Script has no loader of
  // its own, and Node 20 lends it the main one only with an experimental warning on every start.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __impt) {${source}\n})`, { filename: options.file, cachedData });
  const usedCache = cachedData !== undefined && script.cachedDataRejected !== true;
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const importPackage = (specifier: string): Promise<unknown> => import(specifier);
  wrapper.call(module.exports, module.exports, createRequire(options.file), module, options.file, dirname(options.file), importPackage);
  let saved = usedCache;
  return {
    exports: module.exports,
    usedCache,
    saveCodeCache() {
      if (saved || options.cacheDir === undefined) return;
      saved = true;
      let data: Buffer;
      try {
        data = script.createCachedData();
      } catch {
        return;
      }
      writeCache(options.cacheDir, name, prefix, data);
    },
  };
}
