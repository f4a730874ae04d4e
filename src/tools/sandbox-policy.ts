/**
 * The launch policy for everything cairn starts in a workspace: the scrubbed
 * environment and, when the sandbox is on, what it masks (files the ignore
 * file hides, credentials folders, cairn's user config) and keeps read-only
 * (protected paths inside the workspace).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { LaunchPolicy } from "../security/process-launch.js";
import type { SandboxMode } from "../security/sandbox.js";
import { credentialFolders } from "../security/sensitive-paths.js";
import { commandNetworkSync } from "../security/network-rules.js";
import type { PermissionRules } from "../security/permission-rules.js";
import { WorkspaceGuard } from "./workspace-guard.js";

const maximumEntries = 50_000;
const protectedEntries = [".cairn", ".cairnignore", ".clineignore", ".clinerules/hooks", ".clinerules/workflows", ".claude", ".git/hooks", ".git/config"];

/** Every path the ignore file hides (folders are not descended into), walking the workspace synchronously. */
export function ignoredPaths(guard: WorkspaceGuard): string[] {
  const found: string[] = [];
  let seen = 0;
  const visit = (folder: string): void => {
    let children;
    try {
      children = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const child of children) {
      if (++seen > maximumEntries) return;
      if (child.name === ".git" || child.name === "node_modules") continue;
      const path = join(folder, child.name);
      if (guard.isIgnored(path)) found.push(path);
      else if (child.isDirectory()) visit(path);
    }
  };
  visit(guard.root);
  return found;
}

export function createLaunchPolicy(options: {
  workspace: string;
  sandbox: SandboxMode;
  network: boolean;
  allowEnv: readonly string[];
  userConfigDir: string;
  /** Network rules: which commands get the sandbox's network (#14); without, `network` holds for all. */
  rules?: PermissionRules;
}): LaunchPolicy {
  if (options.sandbox === "off") return { allowEnv: options.allowEnv, sandbox: undefined };
  const guard = new WorkspaceGuard(options.workspace);
  return {
    allowEnv: options.allowEnv,
    sandbox: {
      mode: options.sandbox,
      workspace: guard.root,
      network: options.network,
      masked: () => [...ignoredPaths(guard), ...credentialFolders(options.userConfigDir)],
      readOnly: () => protectedEntries.map((entry) => join(guard.root, entry)),
      blockedFolders: () => [".cairn", ".claude", ".clinerules/hooks", ".clinerules/workflows"].map((entry) => join(guard.root, entry)),
      ...(options.rules === undefined ? {} : { commandNetwork: (command: string) => commandNetworkSync({ command, rules: options.rules as PermissionRules, sandboxNetwork: options.network }).network }),
    },
  };
}
