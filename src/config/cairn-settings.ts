/**
 * cairn's own `config.json` (user or project) in the shape every settings
 * file is read into: the keys it shares with Claude Code's files
 * (`permissions.defaultMode`, `env`) taken out of the block they sit in.
 */
import type { ConfigFile } from "./config-file.js";
import type { SettingsFile, SettingsFilePlace } from "./settings-files.js";
import type { PermissionsSetting } from "./permissions-schema.js";

/** Claude Code's permission modes cairn has: `acceptEdits` auto-approves edits in the workspace, `bypassPermissions` is `--yes`, `plan` is plan mode, `auto` lets a model judge what would be asked. */
export const supportedModes = ["default", "acceptEdits", "plan", "auto", "bypassPermissions"] as const;

/** What both formats' `permissions` blocks say beyond the rules. */
export function permissionsExtras(permissions: PermissionsSetting | undefined): Pick<SettingsFile, "defaultMode" | "disableBypass" | "unsupported"> {
  const unsupported: SettingsFile["unsupported"] = [];
  if (permissions?.additionalDirectories !== undefined && permissions.additionalDirectories.length > 0) {
    unsupported.push({
      key: "permissions.additionalDirectories",
      why: "cairn has no extra working folders; allow reads outside the workspace with Read(...) rules or allowOutsideReads",
    });
  }
  const mode = permissions?.defaultMode;
  const known = mode === undefined || (supportedModes as readonly string[]).includes(mode);
  if (!known) {
    unsupported.push({ key: `permissions.defaultMode ${mode}`, why: `cairn's modes are ${supportedModes.join(", ")}; this one is ignored` });
  }
  return {
    ...(mode === undefined || !known ? {} : { defaultMode: mode }),
    disableBypass: permissions?.disableBypassPermissionsMode === "disable",
    unsupported,
  };
}

export function fromCairnConfig(place: SettingsFilePlace, config: ConfigFile, warnings: string[]): SettingsFile {
  const { env, ...rest } = config;
  return {
    ...place,
    config: rest,
    ...permissionsExtras(config.permissions),
    unsandboxedCommands: [],
    environment: { ...env },
    warnings,
  };
}
