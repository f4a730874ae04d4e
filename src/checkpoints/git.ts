import { execFile, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { environmentWithoutGit } from "../security/user-git.js";

/** Checkpoints cannot work here (git missing, home folder, ...); the task runs without them. */
export class CheckpointUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointUnavailableError";
  }
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface GitCall {
  gitDir: string;
  workTree: string;
  args: string[];
  /** Written to git's stdin. */
  input?: string;
  signal?: AbortSignal;
  /** Extra environment (e.g. a temporary GIT_INDEX_FILE). */
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  allowExitCodes?: number[];
}

/**
 * The environment for the shadow repository: no inherited GIT_* variable may point
 * git at the user's repository, the user's git config cannot add hooks or signing,
 * and an identity is set so commits work on a machine that has none.
 */
export function shadowGitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return environmentWithoutGit({
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "cairn",
    GIT_AUTHOR_EMAIL: "cairn@localhost",
    GIT_COMMITTER_NAME: "cairn",
    GIT_COMMITTER_EMAIL: "cairn@localhost",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
    ...extra,
  });
}

/**
 * Writes a child's whole input and closes it. A git that exits before reading it all (a
 * failure, a lock held by another process) makes the write fail with EPIPE: that is not
 * an error of its own (the exit status tells what went wrong), and unhandled it would end cairn.
 */
export function endInput(child: ChildProcess, input: string): void {
  child.stdin?.on("error", () => undefined);
  child.stdin?.end(input);
}

/** Runs git against the shadow repository, always with an explicit git dir and work tree. */
export function runGit(call: GitCall): Promise<GitResult> {
  const args = [`--git-dir=${call.gitDir}`, `--work-tree=${call.workTree}`, "--literal-pathspecs", ...call.args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      args,
      {
        cwd: call.workTree,
        env: shadowGitEnvironment(call.env),
        maxBuffer: 512 * 1024 * 1024,
        encoding: "utf8",
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ stdout, stderr, exitCode: 0 });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" && !existsSync(call.workTree)) {
          // spawn says ENOENT for a missing working folder too: that is not a missing git.
          return reject(new Error(`the workspace folder ${call.workTree} no longer exists`));
        }
        if (code === "ENOENT") {
          return reject(new CheckpointUnavailableError("git is not installed (or not on PATH), so checkpoints are off; install git to get them"));
        }
        if (error.name === "AbortError") return reject(new Error(`git ${call.args[0] ?? ""} was stopped`, { cause: error }));
        const exitCode = typeof code === "number" ? code : -1;
        if (call.allowExitCodes?.includes(exitCode)) return resolve({ stdout, stderr, exitCode });
        reject(new Error(`git ${call.args.slice(0, 2).join(" ")} failed (exit ${exitCode}): ${stderr.trim() || error.message}`));
      },
    );
    if (call.input !== undefined) endInput(child, call.input);
  });
}
