/**
 * cairn's own process keeps no key where another process can read it (issue
 * 26): at start the variables whose names look secret are taken out of the
 * environment into a private store, and their bytes in the process's original
 * environment block (what `/proc/<pid>/environ` shows) are overwritten; so is
 * a key given on the command line (`/proc/<pid>/cmdline`). Code that needs a
 * key asks `environmentWithSecrets()`; every child process gets the scrubbed
 * environment (child-environment.ts), and only the names the user allows.
 */
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { looksSecret } from "./child-environment.js";

const store = new Map<string, string>();
let withdrawn = false;

/** The fields of /proc/self/stat from the 3rd on (after the command name, which may hold spaces). */
function statFields(): string[] {
  const stat = readFileSync("/proc/self/stat", "utf8");
  return stat
    .slice(stat.lastIndexOf(")") + 2)
    .trim()
    .split(" ");
}

/** Overwrites, in this process's memory between `start` and `end`, each range the chooser picks. */
function overwrite(start: number, end: number, choose: (text: string) => Array<{ from: number; to: number }>): boolean {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start || end - start > 16 * 1024 * 1024) return false;
  let descriptor: number | undefined;
  try {
    descriptor = openSync("/proc/self/mem", "r+");
    const buffer = Buffer.alloc(end - start);
    readSync(descriptor, buffer, 0, buffer.length, start);
    for (const { from, to } of choose(buffer.toString("latin1"))) {
      if (to > from) writeSync(descriptor, Buffer.alloc(to - from, 0x2a), 0, to - from, start + from);
    }
    return true;
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The value ranges of `NAME=value` entries whose names are secret, in a NUL-separated block. */
function secretValueRanges(block: string, names: ReadonlySet<string>): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  let offset = 0;
  for (const entry of block.split("\0")) {
    const equals = entry.indexOf("=");
    if (equals > 0 && names.has(entry.slice(0, equals))) ranges.push({ from: offset + equals + 1, to: offset + entry.length });
    offset += entry.length + 1;
  }
  return ranges;
}

/** The range of a key given as `--api-key VALUE` or `--api-key=VALUE` in a NUL-separated argument block. */
function keyArgumentRanges(block: string): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  const args = block.split("\0");
  let offset = 0;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (arg.startsWith("--api-key=")) ranges.push({ from: offset + "--api-key=".length, to: offset + arg.length });
    if (arg === "--api-key" && index + 1 < args.length) ranges.push({ from: offset + arg.length + 1, to: offset + arg.length + 1 + (args[index + 1] ?? "").length });
    offset += arg.length + 1;
  }
  return ranges;
}

/**
 * Takes the secret-looking variables out of `process.env` and wipes them (and
 * a `--api-key` argument) from what other processes can read. Returns whether
 * the original blocks could be overwritten (false where /proc is missing or
 * forbids it: the variables are still out of `process.env`).
 */
export function withdrawSecrets(): boolean {
  if (withdrawn) return true;
  withdrawn = true;
  const names = new Set<string>();
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || !looksSecret(name)) continue;
    store.set(name, value);
    names.add(name);
    delete process.env[name];
  }
  if (process.platform !== "linux") return false;
  try {
    const fields = statFields();
    // /proc/<pid>/stat: fields 48-51 are arg_start, arg_end, env_start, env_end (index 0 here is field 3).
    const [argStart, argEnd, envStart, envEnd] = [48, 49, 50, 51].map((field) => Number(fields[field - 3]));
    const environment = names.size === 0 || overwrite(envStart ?? 0, envEnd ?? 0, (block) => secretValueRanges(block, names));
    const argumentsWiped = !process.argv.some((arg) => arg.startsWith("--api-key")) || overwrite(argStart ?? 0, argEnd ?? 0, keyArgumentRanges);
    return environment && argumentsWiped;
  } catch {
    return false;
  }
}

/** The environment with the withdrawn secrets: for resolving settings (keys) and the names the user lets through to commands. */
export function environmentWithSecrets(): NodeJS.ProcessEnv {
  return store.size === 0 ? process.env : { ...process.env, ...Object.fromEntries(store) };
}
