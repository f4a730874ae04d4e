/**
 * The folder git runs hooks from when `core.hooksPath` names one (`.husky/_`,
 * `~/.githooks`), protected like `.git/hooks`. Asking git costs a process, so
 * the answer is kept per workspace and asked again when any config file git
 * reads for it changes: the system and global files (where git's variables
 * put them), the repository's own config in its common git folder (a linked
 * worktree's `.git` is a file naming its git folder, a workspace below the
 * repository's top finds it in a parent folder), the worktree's
 * `config.worktree`, and every file an `[include]` brought in.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** Variables that change which config files git reads, or add settings of their own. */
const configVariables = ["HOME", "XDG_CONFIG_HOME", "GIT_DIR", "GIT_COMMON_DIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"];

interface Repository {
  /** The working tree's top: where hooks run, and what a relative `core.hooksPath` is relative to. */
  top: string;
  gitDir: string;
  commonDir: string;
}

/** A small file's text, or undefined when there is none (asked first: most repositories have no `commondir`, and a throw per call costs). */
function readText(path: string): string | undefined {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The repository holding `workspace`, found as git finds it: the nearest `.git` folder, or `.git` file (`gitdir: ...`), upwards. */
export function repositoryOf(workspace: string): Repository | undefined {
  for (let folder = workspace; ; folder = dirname(folder)) {
    const dotGit = join(folder, ".git");
    let gitDir: string | undefined;
    try {
      const stats = statSync(dotGit, { throwIfNoEntry: false });
      if (stats?.isDirectory() === true) gitDir = dotGit;
      else if (stats?.isFile() === true) {
        const named = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "")?.[1];
        if (named !== undefined) gitDir = resolve(folder, named);
      }
    } catch {
      gitDir = undefined;
    }
    if (gitDir !== undefined) {
      const common = readText(join(gitDir, "commondir"))?.trim();
      return { top: folder, gitDir, commonDir: common === undefined || common === "" ? gitDir : resolve(gitDir, common) };
    }
    if (dirname(folder) === folder) return undefined;
  }
}

/** The config files git reads in this repository whether they exist or not (includes come from git's own answer). */
function configFiles(repository: Repository | undefined): string[] {
  const home = process.env["HOME"] ?? homedir();
  const xdg = process.env["XDG_CONFIG_HOME"];
  const files = [process.env["GIT_CONFIG_SYSTEM"] ?? "/etc/gitconfig", process.env["GIT_CONFIG_GLOBAL"] ?? join(home, ".gitconfig"), join(xdg !== undefined && xdg !== "" ? xdg : join(home, ".config"), "git", "config")];
  if (repository !== undefined) files.push(join(repository.commonDir, "config"), join(repository.gitDir, "config.worktree"));
  return files;
}

function stampOf(paths: Iterable<string>): string {
  const parts: string[] = [];
  for (const path of paths) {
    try {
      const stats = statSync(path, { throwIfNoEntry: false });
      parts.push(stats === undefined ? "-" : `${stats.ino}:${stats.mtimeMs}:${stats.size}`);
    } catch {
      parts.push("-");
    }
  }
  return parts.join("|");
}

interface Cached {
  key: string;
  /** Every file the answer depends on: the fixed ones and those git named as origins (includes). */
  files: string[];
  stamp: string;
  value: string | undefined;
}

const cache = new Map<string, Cached>();

/** Asks git: every setting with the file it came from; keeps the last `core.hooksPath` and the files. */
function askGit(workspace: string): { hooksPath: string | undefined; origins: string[] } {
  const result = spawnSync("git", ["config", "--list", "--show-origin", "--includes", "-z"], { cwd: workspace, encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] });
  const fields = result.status === 0 ? result.stdout.split("\0") : [];
  const origins = new Set<string>();
  let hooksPath: string | undefined;
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const origin = fields[index] ?? "";
    const entry = fields[index + 1] ?? "";
    if (origin.startsWith("file:")) origins.add(resolve(workspace, origin.slice("file:".length)));
    const newline = entry.indexOf("\n");
    const key = newline === -1 ? entry : entry.slice(0, newline);
    if (key.toLowerCase() === "core.hookspath") hooksPath = newline === -1 ? "" : entry.slice(newline + 1);
  }
  return { hooksPath, origins: [...origins] };
}

/** The folder git runs hooks from when `core.hooksPath` names one, absolute. */
export function configuredHooksPath(workspace: string): string | undefined {
  const repository = repositoryOf(workspace);
  const key = [repository?.gitDir ?? "", ...configVariables.map((name) => process.env[name] ?? "\0")].join("\n");
  const cached = cache.get(workspace);
  if (cached !== undefined && cached.key === key && stampOf(cached.files) === cached.stamp) return cached.value;
  const fixed = configFiles(repository);
  // Stamped before asking: a file changed while git reads it is read again next time.
  const before = stampOf(fixed);
  const { hooksPath, origins } = askGit(workspace);
  const included = origins.filter((origin) => !fixed.includes(origin));
  const files = [...fixed, ...included];
  const stamp = included.length === 0 ? before : `${before}|${stampOf(included)}`;
  const text = hooksPath?.trim() ?? "";
  let value: string | undefined;
  if (text !== "") {
    const home = homedir();
    const expanded = text === "~" ? home : text.startsWith("~/") ? join(home, text.slice(2)) : text;
    value = isAbsolute(expanded) ? resolve(expanded) : resolve(repository?.top ?? workspace, expanded);
  }
  cache.set(workspace, { key, files, stamp, value });
  return value;
}
