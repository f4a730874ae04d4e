/**
 * What the security layer needs to know about a path a tool or a command
 * names, from the workspace guard: inside or not (links followed), ignored,
 * protected, credentials.
 */
import type { PathFacts, PathOracle } from "../security/command-assessment.js";
import { isCredentialPath, protectedReason } from "../security/sensitive-paths.js";
import type { WorkspaceGuard } from "./workspace-guard.js";

export function workspacePathOracle(guard: WorkspaceGuard, userConfigDir: string): PathOracle {
  return {
    cwd: guard.root,
    snapshot: () => workspacePathOracle(guard.snapshot(), userConfigDir),
    facts(path: string): PathFacts {
      const resolved = guard.resolve(path);
      const places = { workspace: guard.root, userConfigDir };
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
