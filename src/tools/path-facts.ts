/**
 * What the security layer needs to know about a path a tool or a command
 * names, from the workspace guard: inside or not (links followed), ignored,
 * protected, credentials; and whether the workspace holds files that must not
 * be read at all (a command reading whole folders would find them).
 */
import type { PathFacts, PathOracle } from "../security/command-assessment.js";
import { configuredHooksPath } from "../security/protected-paths.js";
import { isCredentialPath, protectedReason } from "../security/sensitive-paths.js";
import type { WorkspaceGuard } from "./workspace-guard.js";
import { WorkspaceScan } from "./workspace-scan.js";

/**
 * `frozen`: an oracle for one decision (a command's words, a search's files): the guard reads the
 * ignore files once, and git's hooks folder is asked once, when a path first needs it.
 */
export function workspacePathOracle(guard: WorkspaceGuard, userConfigDir: string, scan: WorkspaceScan = new WorkspaceScan(guard, userConfigDir), frozen = false): PathOracle {
  let hooks: { path: string | undefined } | undefined;
  const places = {
    workspace: guard.root,
    userConfigDir,
    ...(frozen ? { hooksPath: () => (hooks ??= { path: configuredHooksPath(guard.root) }).path } : {}),
  };
  return {
    cwd: guard.root,
    snapshot: () => workspacePathOracle(guard.snapshot(), userConfigDir, scan, true),
    hasIgnoredFiles: () => scan.scan().hidden.length > 0,
    facts(path: string): PathFacts {
      const resolved = guard.resolve(path);
      return {
        inside: resolved.inside,
        ignored: resolved.ignored,
        protectedReason: protectedReason(resolved.absolute, places) ?? protectedReason(resolved.real, places),
        credential: isCredentialPath(resolved.absolute, userConfigDir) || isCredentialPath(resolved.real, userConfigDir),
        display: resolved.display,
      };
    },
  };
}
