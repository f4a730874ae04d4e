/**
 * Paths that need more than an ordinary approval. Protected paths configure
 * cairn or run code at the next start (cairn's config and ignore files, hooks,
 * workflows, git hooks and config): they are never written without an
 * explicit ask, even with --yes. Credentials folders are never read unless a
 * rule names them.
 */
import { homedir } from "node:os";
import { basename, join, relative, sep } from "node:path";

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

const protectedInWorkspace: Array<{ test: (segments: string[]) => boolean; reason: string }> = [
  { test: (segments) => segments.includes(".cairn"), reason: "cairn's project configuration" },
  { test: (segments) => segments.at(-1) === ".cairnignore" || segments.at(-1) === ".clineignore", reason: "the ignore file" },
  { test: (segments) => hasSequence(segments, [".clinerules", "hooks"]), reason: "hooks that run commands" },
  { test: (segments) => hasSequence(segments, [".clinerules", "workflows"]), reason: "workflows" },
  { test: (segments) => segments.includes(".claude"), reason: "Claude Code settings and hooks" },
  { test: (segments) => hasSequence(segments, [".git", "hooks"]), reason: "git hooks run code" },
  { test: (segments) => hasSequence(segments, [".git", "config"]), reason: "git configuration can run code" },
];

function hasSequence(segments: string[], sequence: string[]): boolean {
  for (let index = 0; index + sequence.length <= segments.length; index += 1) {
    if (sequence.every((segment, offset) => segments[index + offset] === segment)) return true;
  }
  return false;
}

/** Why a path is protected, or undefined. `path` is absolute (real or lexical: pass both when they differ). */
export function protectedReason(path: string, options: { workspace: string; userConfigDir: string }): string | undefined {
  if (within(options.userConfigDir, path)) return "cairn's user configuration";
  if (within(join(homedir(), ".claude"), path)) return "Claude Code settings and hooks";
  if (!within(options.workspace, path)) return undefined;
  const segments = relative(options.workspace, path).split(sep).filter((segment) => segment !== "");
  return protectedInWorkspace.find((entry) => entry.test(segments))?.reason;
}

/** Credentials folders under the home folder, denied unless a rule names them. */
export function credentialFolders(userConfigDir: string): string[] {
  const home = homedir();
  return [".ssh", ".aws", ".gnupg", ".config/gh", ".docker", ".kube", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".config/gcloud", ".azure"]
    .map((name) => join(home, name))
    .concat(userConfigDir);
}

export function isCredentialPath(path: string, userConfigDir: string): boolean {
  if (/^\.env(\..*)?$/.test(basename(path)) && !/\.(example|sample|template)$/.test(path)) return true;
  return credentialFolders(userConfigDir).some((folder) => within(folder, path));
}
