import type { ResolvedSettings } from "../config/index.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import type { PermissionRules } from "../security/permission-rules.js";
import { createLaunchPolicy } from "../tools/sandbox-policy.js";

/**
 * How a session's processes start (commands, hooks, MCP servers, the status
 * line): the sandbox, network, environment and data folder as the settings
 * say, in `workspace` (the settings' folder unless a subagent has its own),
 * under `rules`, from `baseEnvironment` (an SDK caller's `env`) or this process's.
 */
export function launchPolicyFor(settings: ResolvedSettings, place: { rules: PermissionRules; workspace?: string; readableInDataDir?: string; baseEnvironment?: NodeJS.ProcessEnv | undefined }): LaunchPolicy {
  return createLaunchPolicy({
    workspace: place.workspace ?? settings.cwd,
    sandbox: settings.sandbox,
    network: settings.sandboxNetwork,
    allowEnv: settings.allowEnv,
    environment: settings.environment,
    userConfigDir: settings.userConfigDir,
    dataDir: settings.dataDir,
    rules: place.rules,
    ...(place.readableInDataDir === undefined ? {} : { readableInDataDir: place.readableInDataDir }),
    ...(place.baseEnvironment === undefined ? {} : { baseEnvironment: place.baseEnvironment }),
  });
}
