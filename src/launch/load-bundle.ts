/**
 * Loads the CLI's CommonJS bundle (dist/cli/main.cjs) with a V8 code cache
 * (issue 18: start-up). Node 20 keeps no compiled code between runs for ES
 * modules, and compiling cairn's JavaScript was most of what a start cost above
 * the SDK's own: a `vm.Script` takes the code V8 compiled in an earlier run
 * (`cachedData`) and compiles nothing it finds there, neither the top level nor
 * the functions that run had compiled by the time it wrote the cache.
 *
 * V8 trusts a cache more than it should, so cairn checks it first (cache-file.ts):
 * - V8 matches a cache to its source by the source's length only, so a rebuild of
 *   the same size would run the old build's compiled code. A cache file is named
 *   and headed by the hash of the bundle's bytes and V8's cache version tag
 *   (V8's version and flags): another build or another Node finds no file to take.
 * - V8 on Node 20 does not checksum a cache in release builds: a damaged file
 *   crashed every start (V8 fatal error, exit 133). Each file carries the hash
 *   of its payload; a file that does not match is deleted and written anew.
 * Hashing the bundle and the payload costs about 4 ms of a start on this machine
 * (the bundle is read anyway; bench/RESULTS.md, issue 33).
 *
 * One cache file per bundle content, V8 tag, architecture and variant (the
 * command: `run` compiles other functions than the terminal UI). It is written
 * when there was none or it was rejected, late in the run (`saveCodeCache`), so
 * it holds what the run compiled. Other builds' and other Nodes' files stay (two
 * Node versions may share a data folder), the few most recent of each variant.
 * A failure to read or write the cache only costs speed: the bundle compiles from source.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { Script } from "node:vm";
import { cacheFileName, contentHash, decodeCacheFile, encodeCacheFile, pruneCacheFolder } from "./cache-file.js";

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
  /** Whether V8 took the cached code (false on a build's first run, or when the cache was damaged or did not fit). */
  readonly usedCache: boolean;
  /** Writes the cache when there was none or it was rejected; never throws. Call it late: it holds only what has been compiled by then. */
  saveCodeCache(): void;
  /** Writes the cache again when this run compiled a quarter more than it holds (V8's data of the whole run is made to compare: call it once, at the end of a long run); never throws. */
  saveCodeCacheIfGrown(): void;
}

/** How much larger V8's data of a run must be than the cache it started with to be written again. */
const growthToRewrite = 1.25;

/**
 * The wrapper keeps the bundle's first line first, so line numbers in stack traces match the file
 * (columns on the first line are shifted by its length: readable-stack.ts takes it off).
 */
export const wrapperPrefix = "(function (exports, require, module, __filename, __dirname, __impt) {";

/** The checked payload of the cache file at `path`, or undefined; a damaged or foreign file there is deleted. */
function readCache(path: string | undefined, bundleHash: Buffer, tag: number): Buffer | undefined {
  if (path === undefined) return undefined;
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return undefined;
  }
  const payload = decodeCacheFile(data, bundleHash, tag);
  if (payload === undefined) {
    // Never handed to V8; the run writes a healthy one (saveCodeCache).
    try {
      rmSync(path, { force: true });
    } catch {
      // A read-only folder: the file is skipped at every start, which costs only speed.
    }
  }
  return payload;
}

/** Writes through a temporary file, so a concurrent start never reads half a cache; then keeps the variant's folder small. */
function writeCache(cacheDir: string, name: string, variant: string, data: Buffer): void {
  const temporary = join(cacheDir, `${name}.${process.pid}.tmp`);
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, join(cacheDir, name));
    pruneCacheFolder(cacheDir, variant, name);
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
  const bytes = readFileSync(options.file);
  const bundleHash = contentHash(bytes);
  // The bundle is ASCII (scripts/bundle.js escapes the rest): latin1 reads it exactly, without UTF-8 decoding.
  const source = bytes.toString("latin1");
  const tag = cachedDataVersionTag();
  const name = cacheFileName(options.variant, bundleHash, tag);
  const cachedData = readCache(options.cacheDir === undefined ? undefined : join(options.cacheDir, name), bundleHash, tag);
  // `__impt` is the bundle's import() of packages (scripts/bundle.js renames it): a vm.Script has no loader of
  // its own, and Node 20 lends it the main one only with an experimental warning on every start.
  const script = new Script(`${wrapperPrefix}${source}\n})`, { filename: options.file, ...(cachedData === undefined ? {} : { cachedData }) });
  const usedCache = cachedData !== undefined && script.cachedDataRejected !== true;
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const importPackage = (specifier: string): Promise<unknown> => import(specifier);
  wrapper.call(module.exports, module.exports, createRequire(options.file), module, options.file, dirname(options.file), importPackage);
  let saved = usedCache;
  let savedLength = usedCache ? (cachedData?.length ?? 0) : 0;
  const save = (when: (payload: Buffer) => boolean): void => {
    if (options.cacheDir === undefined) return;
    let payload: Buffer;
    try {
      payload = script.createCachedData();
    } catch {
      return;
    }
    if (!when(payload)) return;
    savedLength = payload.length;
    writeCache(options.cacheDir, name, options.variant, encodeCacheFile(payload, bundleHash, tag));
  };
  return {
    exports: module.exports,
    usedCache,
    saveCodeCache() {
      if (saved) return;
      saved = true;
      save(() => true);
    },
    saveCodeCacheIfGrown() {
      save((payload) => payload.length > savedLength * growthToRewrite);
    },
  };
}
