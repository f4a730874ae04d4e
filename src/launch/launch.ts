/**
 * What `bin/cairn` runs for every command but `--version`: the CLI bundle,
 * loaded with cairn's code cache (load-bundle.ts), in `CAIRN_HOME/compile-cache`
 * (`~/.cairn` by default; a `dataDir` from a config file is not read this early).
 * `NODE_DISABLE_COMPILE_CACHE=1`, Node's own switch, turns it off as well.
 */
import * as nodeModule from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { isatty } from "node:tty";
import { fileURLToPath } from "node:url";
import { loadBundle, wrapperPrefix, type LoadedBundle } from "./load-bundle.js";
import { createStackMapper, installStackMapper } from "./readable-stack.js";
import { startBubblewrapProbe } from "../security/sandbox-probe.js";
import { mayPaintEarly } from "./early-frame-text.js";
import { paintEarlyFrame } from "./early-frame.js";

const helpOrVersion = ["--help", "-h", "--version", "-V"];

/** `cairn`, `cairn --flags`, `cairn "a task"`: the terminal UI (or `-p`); a first word without a space may also be a task. */
function terminalUiForm(args: readonly string[]): boolean {
  const command = args[0];
  return !args.some((arg) => helpOrVersion.includes(arg)) && (command === undefined || command.startsWith("-") || command.includes(" "));
}

/**
 * The commands whose starts matter most get a cache of their own: the terminal
 * UI, `acp`, and `run` one per `--provider` named on the command line (each
 * SDK's functions are compiled only when it is used); every other command shares one.
 */
export function cacheVariant(args: readonly string[]): string {
  const command = args[0];
  if (command === "acp") return command;
  if (terminalUiForm(args)) return "tui";
  if (command !== "run") return "main";
  const index = args.indexOf("--provider");
  const provider = index >= 0 ? args[index + 1] : args.find((arg) => arg.startsWith("--provider="))?.slice("--provider=".length);
  return provider !== undefined && /^[a-z0-9-]{1,32}$/.test(provider) ? `run-${provider}` : "run";
}

/**
 * Commands that start a task soon: the task's start needs bubblewrap's answer (about 30 ms of
 * waiting, src/security/sandbox-probe.ts), asked while the bundle loads. A single word may be a
 * subcommand, so only `run`, `resume`, `acp` and the terminal UI's forms with flags or a sentence count.
 */
export function startsTask(args: readonly string[]): boolean {
  if (args.some((arg) => [...helpOrVersion, "--sandbox=off"].includes(arg))) return false;
  const sandboxFlag = args.indexOf("--sandbox");
  if (sandboxFlag >= 0 && args[sandboxFlag + 1] === "off") return false;
  const command = args[0];
  return command === "run" || command === "resume" || command === "acp" || terminalUiForm(args);
}

export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env["NODE_DISABLE_COMPILE_CACHE"] !== undefined && env["NODE_DISABLE_COMPILE_CACHE"] !== "") return undefined;
  // A folder of its own (a CI cache, a read-only home, many data folders sharing one cache).
  const chosen = env["CAIRN_COMPILE_CACHE"];
  if (chosen !== undefined && chosen !== "") return chosen;
  return join(env["CAIRN_HOME"] || join(homedir(), ".cairn"), "compile-cache");
}

/** Where the CLI bundle finds its chunks (scripts/bundle.js `chunkRegistryKey`). */
export const chunkRegistry = Symbol.for("cairn.chunks");

/**
 * The CLI bundle's parts that only some runs need (dist/cli/NAME.cjs, scripts/bundle.js `chunks`:
 * OpenTelemetry) load through this, on first use, each with a code cache of its own (variant
 * `chunk-NAME`): compiled from source once, then taken from the cache. `saveCodeCaches` writes
 * those that had none, at exit, when they have run.
 */
export function registerChunks(cacheDir: string | undefined): { saveCodeCaches(): void } {
  const loaded = new Map<string, LoadedBundle>();
  const load = (name: string): Record<string, unknown> => {
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`cairn: no chunk named "${name}"`);
    let chunk = loaded.get(name);
    if (chunk === undefined) {
      chunk = loadBundle({ file: fileURLToPath(new URL(`./cli/${name}.cjs`, import.meta.url)), cacheDir, variant: `chunk-${name}` });
      loaded.set(name, chunk);
    }
    return chunk.exports;
  };
  (globalThis as Record<symbol, unknown>)[chunkRegistry] = { load };
  return {
    saveCodeCaches: () => {
      for (const chunk of loaded.values()) chunk.saveCodeCache();
    },
  };
}

/** The terminal UI's input box, drawn now (early-frame.ts) when the UI is sure to open on it. */
function paintEarlyIfTerminalUi(args: readonly string[]): void {
  if (!terminalUiForm(args)) return;
  // Standard input and output are looked at (made streams) only on a terminal.
  const terminal = isatty(0) && isatty(1);
  const columns = (): number => (terminal ? (process.stdout.columns ?? 0) : 0);
  if (mayPaintEarly({ args, env: process.env, stdinIsTTY: terminal, stdoutIsTTY: terminal, columns: columns(), platform: process.platform })) paintEarlyFrame();
}

export async function launch(args: string[]): Promise<number> {
  paintEarlyIfTerminalUi(args);
  const cacheDir = compileCacheDir();
  // Node 22 and later also cache the packages cairn loads from node_modules (the bundle itself is cached below).
  const enableCompileCache = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (cacheDir !== undefined && enableCompileCache !== undefined) enableCompileCache(cacheDir);
  // Its answer is kept where the bundle's copy of the probe finds it.
  if (startsTask(args)) void startBubblewrapProbe();
  const file = fileURLToPath(new URL("./cli/main.cjs", import.meta.url));
  // Traces name src/….ts, with or without the cache (the map is read only when one is printed).
  installStackMapper(createStackMapper(file, wrapperPrefix.length));
  const bundle = loadBundle({ file, cacheDir, variant: cacheVariant(args) });
  const chunks = registerChunks(cacheDir);
  // At exit, the cache holds what the whole run compiled; a run that went on a while and compiled
  // much more than the cache it started with writes it again (a first run of `--help` must not
  // leave the terminal UI a cache of help text). A long-lived process (an editor's agent, a fleet
  // worker) may end by a signal it does not handle, with no exit event: it saves once it has run a
  // while; a closed terminal (SIGHUP) saves, then ends the process as the signal would have.
  process.once("exit", () => {
    if (process.uptime() > 5) bundle.saveCodeCacheIfGrown();
    else bundle.saveCodeCache();
    chunks.saveCodeCaches();
  });
  setTimeout(() => bundle.saveCodeCache(), 30_000).unref();
  process.once("SIGHUP", () => {
    bundle.saveCodeCache();
    process.kill(process.pid, "SIGHUP");
  });
  const cli = bundle.exports["cli"] as (args: string[]) => Promise<number>;
  return cli(args);
}
