import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** `$XDG_CONFIG_HOME/cairn`, or `~/.config/cairn`. */
export function defaultUserConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env["XDG_CONFIG_HOME"];
  // XDG says a relative value must be ignored.
  const base = xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".config");
  return join(base, "cairn");
}

export function userConfigPath(userConfigDir: string): string {
  return join(userConfigDir, "config.json");
}

export function projectConfigPath(workspace: string): string {
  return join(workspace, ".cairn", "config.json");
}

/** `~/.cairn` unless `CAIRN_HOME` says otherwise (flags and config files are applied by the resolver). */
export function defaultDataDir(): string {
  return join(homedir(), ".cairn");
}

/** Expands a leading `~` and makes the path absolute against `base`. */
export function expandPath(path: string, base: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return resolve(base, path);
}
