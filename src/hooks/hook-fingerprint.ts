/**
 * A hook's fingerprint: what trust is given to. For a configured command it
 * covers the command (with its matcher and timeout) and the content of every
 * workspace script the command runs; for an executable in a hooks folder, its
 * content. Computed at discovery and again before each run of a project hook.
 */
import { readFile } from "node:fs/promises";
import type { HookDefinition } from "./hook-definition.js";
import { fingerprintOf } from "./hook-definition.js";
import { hookScripts, scriptParts } from "./hook-scripts.js";

export async function commandFingerprint(options: { configuredAs: string; matcher: string | undefined; command: string; timeoutMs: number; workspace: string }): Promise<{ fingerprint: string; scripts: string[] }> {
  const scripts = await hookScripts(options.command, options.workspace);
  const parts = [options.configuredAs, options.matcher ?? "", options.command, String(options.timeoutMs), ...scriptParts(scripts)];
  return { fingerprint: fingerprintOf(parts), scripts: scripts.map((script) => script.path) };
}

export async function executableFingerprint(file: string): Promise<string> {
  const content = await readFile(file, "utf8").catch(() => "");
  return fingerprintOf([file, content]);
}

/** The hook's fingerprint as its files are now. */
export async function currentFingerprint(hook: HookDefinition, workspace: string): Promise<string> {
  if (hook.origin.kind === "executable") return executableFingerprint(hook.origin.file);
  const { fingerprint } = await commandFingerprint({ configuredAs: hook.configuredAs, matcher: hook.matcher, command: hook.command, timeoutMs: hook.timeoutMs, workspace });
  return fingerprint;
}
