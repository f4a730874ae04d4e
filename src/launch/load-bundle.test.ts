import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { usePerTest } from "../test-support/per-test.js";
import { cacheVariant, compileCacheDir, startsTask } from "./launch.js";
import { loadBundle } from "./load-bundle.js";
import { contentHash, decodeCacheFile, keptPerVariant, pruneCacheFolder } from "./cache-file.js";

// Issue 18 (start-up): the CLI bundle is compiled once and then taken from V8's code cache.

const bundleSource = (answer: number): string =>
  [
    '"use strict";',
    "function twice(value) { return value * 2; }",
    `exports.answer = twice(${answer / 2});`,
    "exports.file = __filename;",
    'exports.pathJoin = require("node:path").join("a", "b");',
    'exports.dynamic = () => __impt("node:os").then((os) => typeof os.cpus);',
    "exports.thisIsExports = this === exports;",
  ].join("\n");

const loader = fileURLToPath(new URL("./load-bundle.ts", import.meta.url));

/**
 * Loads the bundle in a process of its own, as each start of cairn does: within
 * one process V8 keeps compiled scripts in memory and never looks at a cache.
 */
function loadInChild(file: string, cacheDir: string, variant: string, v8Flags: string[] = [], atEnd = "bundle.saveCodeCache();"): { usedCache: boolean; answer: unknown } {
  const code = [
    `const { loadBundle } = await import(${JSON.stringify(loader)});`,
    `const bundle = loadBundle({ file: ${JSON.stringify(file)}, cacheDir: ${JSON.stringify(cacheDir)}, variant: ${JSON.stringify(variant)} });`,
    atEnd,
    "console.log(JSON.stringify({ usedCache: bundle.usedCache, answer: bundle.exports.answer }));",
  ].join("\n");
  return JSON.parse(execFileSync(process.execPath, [...v8Flags, "--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8" })) as { usedCache: boolean; answer: unknown };
}

const bundleHash = (file: string): Buffer => contentHash(readFileSync(file));
/** The V8 tag a cache file was made for, from its name (bundle-VARIANT.HASH.TAG.ARCH.cache). */
const cacheTag = (path: string): number => Number.parseInt(path.split(".").at(-3)!, 16);

describe("loadBundle runs the CommonJS bundle with a code cache", () => {
  const folder = usePerTest(
    "the folder",
    () => temporaryFolder("cairn-load-bundle-"),
    (made) => made.remove(),
  );
  const dir = (): string => folder().path;

  function writeBundle(answer = 42): string {
    const file = join(dir(), "main.cjs");
    writeFileSync(file, bundleSource(answer));
    return file;
  }

  it("runs a CommonJS bundle: exports, __filename, require and `this` as Node's loader gives them, and __impt() as import()", async () => {
    const file = writeBundle();
    const bundle = loadBundle({ file, cacheDir: undefined, variant: "main" });
    expect(bundle.exports).toMatchObject({ answer: 42, file, pathJoin: join("a", "b"), thisIsExports: true });
    await expect((bundle.exports["dynamic"] as () => Promise<string>)()).resolves.toBe("function");
  });

  it("writes the code cache once, and the next start takes it instead of compiling", () => {
    const file = writeBundle();
    const cacheDir = join(dir(), "cache");
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 42 });
    const written = readdirSync(cacheDir);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(new RegExp(`^bundle-run\\.[0-9a-f]{16}\\.[0-9a-f]+\\.${process.arch}\\.cache$`));
    const cache = readFileSync(join(cacheDir, written[0]!));

    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 42 });
    // A cache that was taken is not written again.
    expect(readFileSync(join(cacheDir, written[0]!)).equals(cache)).toBe(true);
    // Another variant has a cache of its own.
    expect(loadInChild(file, cacheDir, "main")).toEqual({ usedCache: false, answer: 42 });
  });

  it("a long run that compiled much more than the cache it started with writes it again; one that did not leaves it", () => {
    const file = join(dir(), "main.cjs");
    const functions = Array.from({ length: 400 }, (_, index) => `function f${index}(value) { const list = [value, ${index}]; return list.map((item) => item + 1).reduce((a, b) => a + b, 0); }`);
    writeFileSync(file, [bundleSource(42), ...functions, `exports.all = () => [${functions.map((_, index) => `f${index}(1)`).join(", ")}];`].join("\n"));
    const cacheDir = join(dir(), "cache");
    // A short first run (`--help`) writes a cache of little.
    expect(loadInChild(file, cacheDir, "main")).toEqual({ usedCache: false, answer: 42 });
    const [name] = readdirSync(cacheDir);
    const small = readFileSync(join(cacheDir, name!)).length;
    // A long run that used everything writes it again, larger.
    expect(loadInChild(file, cacheDir, "main", [], "bundle.exports.all(); bundle.saveCodeCacheIfGrown();")).toEqual({ usedCache: true, answer: 42 });
    const large = readFileSync(join(cacheDir, name!));
    expect(large.length).toBeGreaterThan(small * 1.25);
    // The next such run finds everything in it: nothing is written.
    expect(loadInChild(file, cacheDir, "main", [], "bundle.exports.all(); bundle.saveCodeCacheIfGrown();")).toEqual({ usedCache: true, answer: 42 });
    expect(readFileSync(join(cacheDir, name!)).equals(large)).toBe(true);
    expect(readdirSync(cacheDir)).toEqual([name]);
  });

  it("a damaged cache is rejected, the bundle compiles from source and the cache is written anew", () => {
    const file = writeBundle();
    const cacheDir = join(dir(), "cache");
    loadInChild(file, cacheDir, "run");
    const [name] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, name!), Buffer.from("not a code cache"));

    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 42 });
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 42 });
  });

  it("a cache damaged in place at the same length is never handed to V8: the bundle compiles from source, the file heals, the next start takes it", () => {
    const file = writeBundle();
    const cacheDir = join(dir(), "cache");
    loadInChild(file, cacheDir, "run");
    const [name] = readdirSync(cacheDir);
    const path = join(cacheDir, name!);
    const damaged = readFileSync(path);
    for (let index = damaged.length >> 1; index < (damaged.length >> 1) + 64; index += 1) damaged[index] = damaged[index]! ^ 0xff;
    writeFileSync(path, damaged);

    // V8 itself would crash on such a file (a fatal error, exit 133, at every start).
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 42 });
    const healed = readFileSync(path);
    expect(healed.length).toBe(damaged.length);
    expect(decodeCacheFile(healed, bundleHash(file), cacheTag(path))).toBeDefined();
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 42 });
  });

  it("a rebuild of the same size with the same modification time (a tarball's stamped times) runs the new code", () => {
    const file = writeBundle(42);
    const cacheDir = join(dir(), "cache");
    const stamped = new Date("2026-01-01T00:00:00Z");
    utimesSync(file, stamped, stamped);
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 42 });
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 42 });

    const rebuilt = writeBundle(64);
    expect(readFileSync(rebuilt).length).toBe(bundleSource(42).length);
    utimesSync(rebuilt, stamped, stamped);
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 64 });
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 64 });
  });

  it("two Node versions (V8 cache tags) sharing a data folder keep a cache each", () => {
    const file = writeBundle(42);
    const cacheDir = join(dir(), "cache");
    // Another V8 flag gives another cache version tag, as another Node version does.
    const otherNode = ["--stack-size=2000"];
    loadInChild(file, cacheDir, "run");
    loadInChild(file, cacheDir, "run", otherNode);
    expect(readdirSync(cacheDir)).toHaveLength(2);
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 42 });
    expect(loadInChild(file, cacheDir, "run", otherNode)).toEqual({ usedCache: true, answer: 42 });
  });

  it("after writing, a variant keeps its newest few cache files; earlier cairns' files and stale temporary files go, other variants' stay", () => {
    const cacheDir = join(dir(), "cache");
    mkdirSync(cacheDir);
    const name = (variant: string, build: number): string => `bundle-${variant}.${build.toString(16).padStart(16, "0")}.c3583e1f.${process.arch}.cache`;
    const files = [
      ...Array.from({ length: keptPerVariant + 2 }, (_, build) => name("run", build)),
      name("run-openai", 0),
      name("main", 0),
      `bundle-run-0123abcd-${process.version}-${process.arch}-100-200.bin`,
      `${name("run", 9)}.4242.tmp`,
    ];
    const now = Date.now() / 1000;
    files.forEach((file, index) => {
      writeFileSync(join(cacheDir, file), "x");
      // Build 0 is the oldest; the temporary file was left an hour ago.
      utimesSync(join(cacheDir, file), now - 3600, now - 3600 + index);
    });
    pruneCacheFolder(cacheDir, "run", name("run", keptPerVariant + 1));
    expect(readdirSync(cacheDir).sort()).toEqual([...Array.from({ length: keptPerVariant }, (_, index) => name("run", index + 2)), name("run-openai", 0), name("main", 0)].sort());
  });

  it("two installations sharing a data folder keep a cache each", () => {
    const file = writeBundle(42);
    const otherFile = join(dir(), "other", "main.cjs");
    mkdirSync(dirname(otherFile));
    writeFileSync(otherFile, bundleSource(64));
    const cacheDir = join(dir(), "cache");
    loadInChild(file, cacheDir, "run");
    loadInChild(otherFile, cacheDir, "run");
    expect(readdirSync(cacheDir)).toHaveLength(2);
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: true, answer: 42 });
    expect(loadInChild(otherFile, cacheDir, "run")).toEqual({ usedCache: true, answer: 64 });
  });

  it("a cache folder it cannot write (here a file stands in its place, which stops root as well) costs only the cache", () => {
    const file = writeBundle();
    const cacheDir = join(dir(), "a-file");
    writeFileSync(cacheDir, "");
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 42 });
    expect(loadInChild(file, cacheDir, "run")).toEqual({ usedCache: false, answer: 42 });
  });

  it("a variant that could leave the cache folder is refused", () => {
    expect(() => loadBundle({ file: join(dir(), "main.cjs"), cacheDir: dir(), variant: "../x" })).toThrow(/letters, digits and dashes/);
  });
});

describe("launch settings: which compile cache a command uses, and where", () => {
  it("the terminal UI, `run` (one per --provider given) and `acp` have caches of their own; every other command shares one", () => {
    expect(cacheVariant(["run", "--json", "task"])).toBe("run");
    expect(cacheVariant(["run", "--provider", "openai", "task"])).toBe("run-openai");
    expect(cacheVariant(["run", "--provider=anthropic", "task"])).toBe("run-anthropic");
    expect(cacheVariant(["run", "--provider", "../x", "task"])).toBe("run");
    expect(cacheVariant(["acp"])).toBe("acp");
    expect(cacheVariant(["fix the tests"])).toBe("tui");
    expect(cacheVariant([])).toBe("tui");
    expect(cacheVariant(["--model", "m"])).toBe("tui");
    expect(cacheVariant(["--help"])).toBe("main");
    expect(cacheVariant(["history"])).toBe("main");
  });

  it("commands that start a task ask bubblewrap while the bundle loads; help, version, subcommands and --sandbox off do not", () => {
    for (const args of [["run", "--json", "task"], ["resume", "abc"], ["acp"], [], ["fix the tests"], ["--model", "m", "fix it"], ["run", "--sandbox", "read-only", "x"]])
      expect(startsTask(args), args.join(" ")).toBe(true);
    for (const args of [["--help"], ["run", "--help"], ["-V"], ["history"], ["config"], ["run", "--sandbox", "off", "x"], ["run", "--sandbox=off", "x"]]) expect(startsTask(args), args.join(" ")).toBe(false);
  });

  it("the cache lives in CAIRN_HOME/compile-cache, or where CAIRN_COMPILE_CACHE says; NODE_DISABLE_COMPILE_CACHE turns it off", () => {
    expect(compileCacheDir({ CAIRN_HOME: "/data/cairn" })).toBe(join("/data/cairn", "compile-cache"));
    expect(compileCacheDir({ CAIRN_HOME: "/data/cairn", NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
    expect(compileCacheDir({ CAIRN_HOME: "/data/cairn", CAIRN_COMPILE_CACHE: "/ci/cache/cairn" })).toBe("/ci/cache/cairn");
    expect(compileCacheDir({ CAIRN_COMPILE_CACHE: "/ci/cache/cairn", NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
  });
});

describe("the built CLI bundle (npm run build: scripts/bundle.js)", () => {
  const built = fileURLToPath(new URL("../../dist/cli/main.cjs", import.meta.url));

  it("is ASCII, as loadBundle reads it (latin1), and calls __impt() where it imports a package", () => {
    const bytes = readFileSync(built);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
    const text = bytes.toString("latin1");
    expect(text).not.toMatch(/\bimport\("/);
    expect(text).toContain('__impt("undici")');
  });
});
