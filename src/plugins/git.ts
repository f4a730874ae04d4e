/** The few git operations plugins need, run as the user runs git (not a task's command: no sandbox), never steered by an inherited GIT_* variable. */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { environmentWithoutGit } from "../security/user-git.js";

export class PluginGitError extends Error {}

export function git(args: readonly string[], cwd?: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile("git", [...args], { cwd, env: environmentWithoutGit({ GIT_TERMINAL_PROMPT: "0" }), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new PluginGitError(`git ${args[0] ?? ""} failed: ${(stderr || error.message).trim()}`));
      else resolvePromise(stdout.trim());
    });
  });
}

/** A source to clone: a URL (`https://`, `file://`, `ssh://`, `git@host:path`) or a local git repository's folder. */
export async function isGitSource(source: string): Promise<boolean> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[\w.-]+@[\w.-]+:/.test(source)) return true;
  return (await stat(join(source, ".git")).catch(() => undefined)) !== undefined;
}

/** Clones `source` into `folder` (at `ref` or `sha` when given) and returns the commit checked out. */
export async function cloneAt(source: string, folder: string, pin: { ref?: string; sha?: string } = {}): Promise<string> {
  await git(["clone", "--quiet", ...(pin.ref === undefined ? [] : ["--branch", pin.ref]), "--", source, folder]);
  if (pin.sha !== undefined) await git(["checkout", "--quiet", pin.sha], folder);
  return headCommit(folder);
}

export function headCommit(folder: string): Promise<string> {
  return git(["rev-parse", "HEAD"], folder);
}

/** Brings a clone up to its remote's default branch; returns the new commit. */
export async function pullClone(folder: string): Promise<string> {
  await git(["fetch", "--quiet", "origin"], folder);
  await git(["reset", "--quiet", "--hard", "FETCH_HEAD"], folder);
  return headCommit(folder);
}
