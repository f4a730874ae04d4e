/**
 * git as cairn runs it on a user's repository (a fork's worktree, a subagent's
 * worktree and merge): no inherited `GIT_*` variable may point it elsewhere (a
 * hook's `GIT_DIR` or `GIT_INDEX_FILE` when cairn runs inside one), and the
 * repository's own hooks never run.
 */
import { execFile } from "node:child_process";

export interface UserGitOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** This process's environment without any `GIT_*` variable, plus `extra`. */
export function environmentWithoutGit(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
  return { ...env, ...extra };
}

/** Runs `git -c core.hooksPath=/dev/null …args` in `cwd`; resolves with its output and exit code (it never rejects). */
export function userGit(cwd: string, args: readonly string[], input?: string): Promise<UserGitOutput> {
  return new Promise((resolve) => {
    const child = execFile("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd, env: environmentWithoutGit(), maxBuffer: 256 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : 1;
      resolve({ stdout, stderr: error !== null && stderr === "" ? error.message : stderr, exitCode: code });
    });
    // A git that exits before reading its input makes the write fail with EPIPE; its exit status says what went wrong.
    child.stdin?.on("error", () => undefined);
    if (input !== undefined) child.stdin?.end(input);
  });
}
