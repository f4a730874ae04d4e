/**
 * The settings of a `cairn <noun>` command (plugin, hooks, permissions, sandbox):
 * the user's environment with its secrets, the current folder unless another is
 * named, and a setting the user must fix is the command's message (status 2),
 * not a crash.
 */
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import { environmentWithSecrets } from "../security/secret-environment.js";

export interface CommandSettingsRequest {
  flags?: CliFlags | undefined;
  cwd?: string | undefined;
  trust?: boolean | undefined;
}

/** The settings, or 2 once what is wrong with them is on stderr. */
export async function commandSettings(request: CommandSettingsRequest = {}): Promise<ResolvedSettings | 2> {
  const { ConfigError, resolveSettings } = await import("../config/index.js");
  try {
    return await resolveSettings({ flags: request.flags ?? {}, env: environmentWithSecrets(), cwd: request.cwd ?? process.cwd(), trust: request.trust === true });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`cairn: ${error.message}\n`);
    return 2;
  }
}
