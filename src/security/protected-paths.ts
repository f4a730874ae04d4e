/**
 * Paths that configure cairn or another program, or that run code at a later
 * start: cairn's and Claude Code's config, ignore files, rules the agent obeys
 * next time, git's hooks and config (and the hooks folder git is configured
 * to use), editor tasks, direnv files. They are never written without an
 * explicit ask, and in the sandbox they can be neither written, renamed,
 * replaced nor created.
 */
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, relative, sep } from "node:path";
import { configuredHooksPath } from "./git-hooks-path.js";

export { configuredHooksPath } from "./git-hooks-path.js";

export type ProtectedKind = "file" | "folder" | "any";

export interface ProtectedEntry {
  /** Absolute path. */
  path: string;
  reason: string;
  kind: ProtectedKind;
}

const reasons = {
  cairn: "cairn's project configuration",
  ignore: "the ignore file",
  clinerules: "Cline's rules, hooks and workflows",
  claude: "Claude Code settings, hooks and commands",
  mcp: "MCP servers the next session starts",
  rules: "rules the agent obeys next time",
  gitHooks: "git hooks run code",
  nestedGit: "a repository's git folder (or a file naming one): git runs its hooks",
  gitConfig: "git configuration can run code",
  editor: "editor tasks and settings can run code",
  direnv: "direnv runs it when you enter the folder",
  preCommit: "pre-commit runs what it names",
} as const;

/** Entries at the workspace root, relative, with their reason and kind. */
const rootEntries: Array<[string, string, ProtectedKind]> = [
  [".cairn", reasons.cairn, "folder"],
  [".cairnignore", reasons.ignore, "file"],
  [".clineignore", reasons.ignore, "file"],
  [".clinerules", reasons.clinerules, "any"],
  [".claude", reasons.claude, "folder"],
  [".mcp.json", reasons.mcp, "file"],
  ["AGENTS.md", reasons.rules, "file"],
  ["AGENT.md", reasons.rules, "file"],
  ["CLAUDE.md", reasons.rules, "file"],
  ["CLAUDE.local.md", reasons.rules, "file"],
  [".git/hooks", reasons.gitHooks, "folder"],
  [".git/config", reasons.gitConfig, "file"],
  [".vscode/tasks.json", reasons.editor, "file"],
  [".vscode/settings.json", reasons.editor, "file"],
  [".vscode/launch.json", reasons.editor, "file"],
  [".envrc", reasons.direnv, "file"],
  [".pre-commit-config.yaml", reasons.preCommit, "file"],
];

/** File names that are rules wherever they are (a nested AGENTS.md is read when the task enters its folder). */
const rulesFileNames = new Set(["AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"]);

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** The submodules' git folders (`.git/modules/<name>`, nested), whose hooks and config run code too. */
function submoduleGitFolders(workspace: string): string[] {
  const found: string[] = [];
  const visit = (folder: string, depth: number): void => {
    if (depth > 4) return;
    let children;
    try {
      children = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const child of children) {
      if (!child.isDirectory()) continue;
      const path = join(folder, child.name);
      if (isFolder(join(path, "hooks")) || isFolder(join(path, "objects"))) {
        found.push(path);
        visit(join(path, "modules"), depth + 1);
      } else visit(path, depth + 1);
    }
  };
  visit(join(workspace, ".git", "modules"), 0);
  return found;
}

/** Every protected path of a workspace, existing or not (the sandbox keeps missing ones from being created). */
export function protectedEntries(workspace: string, extra: ReadonlyArray<ProtectedEntry> = []): ProtectedEntry[] {
  const entries: ProtectedEntry[] = rootEntries.map(([path, reason, kind]) => ({ path: join(workspace, path), reason, kind }));
  const hooksPath = configuredHooksPath(workspace);
  if (hooksPath !== undefined) entries.push({ path: hooksPath, reason: "git runs hooks from this folder (core.hooksPath)", kind: "folder" });
  for (const folder of submoduleGitFolders(workspace)) {
    entries.push({ path: join(folder, "hooks"), reason: reasons.gitHooks, kind: "folder" }, { path: join(folder, "config"), reason: reasons.gitConfig, kind: "file" });
  }
  return [...entries, ...extra];
}

/**
 * Why a path is protected, or undefined. `path` is absolute (real or lexical: ask for both when they differ).
 * `hooksPath` gives git's hooks folder when the caller already knows it (one decision about many paths asks once).
 */
export function protectedReason(path: string, options: { workspace: string; userConfigDir: string; hooksPath?: () => string | undefined }): string | undefined {
  if (within(options.userConfigDir, path)) return "cairn's user configuration";
  if (within(join(homedir(), ".claude"), path)) return "Claude Code settings and hooks";
  const hooksPath = options.hooksPath === undefined ? configuredHooksPath(options.workspace) : options.hooksPath();
  if (hooksPath !== undefined && within(hooksPath, path)) return "git runs hooks from this folder (core.hooksPath)";
  if (!within(options.workspace, path)) return undefined;
  const relativePath = relative(options.workspace, path);
  const segments = relativePath.split(sep).filter((segment) => segment !== "");
  if (segments.length === 0) return undefined;
  for (const [entry, reason] of rootEntries) {
    const parts = entry.split("/");
    if (parts.every((part, index) => segments[index] === part)) return reason;
  }
  if (rulesFileNames.has(basename(path))) return reasons.rules;
  if (segments.includes(".clinerules")) return reasons.clinerules;
  // A submodule's git folder: .git/modules/<name>/(hooks|config).
  if (segments[0] === ".git" && segments[1] === "modules") {
    const index = segments.findIndex((segment, position) => position > 1 && (segment === "hooks" || segment === "config"));
    if (index > 2) return segments[index] === "hooks" ? reasons.gitHooks : reasons.gitConfig;
  }
  // A repository inside the workspace (a vendored project, an example): git runs its hooks and reads
  // its config when the user works in it. Its `.git` itself (a folder, or a file naming a git folder
  // anywhere) is where a new one would be pointed.
  const nested = segments.indexOf(".git", 1);
  if (nested > 0) {
    if (nested === segments.length - 1) return reasons.nestedGit;
    if (segments[nested + 1] === "hooks") return reasons.gitHooks;
    if (segments[nested + 1] === "config" || segments[nested + 1] === "config.worktree") return reasons.gitConfig;
  }
  return undefined;
}
