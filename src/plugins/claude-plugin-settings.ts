/**
 * Claude Code's plugin keys in its settings files, read unchanged:
 * `enabledPlugins` (`{"name@marketplace": true | false}`) and
 * `extraKnownMarketplaces` (`{"name": {"source": {"source": "github", "repo": "o/r"}}}`,
 * or `git`/`url` with `url`, or `directory` with `path`). The user's
 * `~/.claude/settings.json`, then a trusted project's `.claude/settings.json`
 * and `.claude/settings.local.json` (later ones win).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export interface ClaudePluginSettings {
  /** By `name@marketplace`: the value and the file that set it. */
  enabled: Map<string, { on: boolean; file: string }>;
  /** By marketplace name: a source `cairn plugin marketplace add` takes, and the file. */
  marketplaces: Map<string, { source: string; file: string }>;
}

export interface ClaudeSettingsPlaces {
  claudeUserDir: string;
  cwd: string;
  projectTrusted: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A marketplace source object as a source string cairn can add. */
export function marketplaceSourceText(value: unknown): string | undefined {
  const source = isRecord(value) && isRecord(value["source"]) ? value["source"] : value;
  if (!isRecord(source)) return undefined;
  const kind = source["source"];
  if (kind === "github" && typeof source["repo"] === "string") return `https://github.com/${source["repo"]}.git`;
  if ((kind === "git" || kind === "url") && typeof source["url"] === "string") return source["url"];
  if ((kind === "directory" || kind === "file") && typeof source["path"] === "string") return source["path"];
  return undefined;
}

export async function readClaudePluginSettings(places: ClaudeSettingsPlaces): Promise<ClaudePluginSettings> {
  const files = [join(places.claudeUserDir, "settings.json"), ...(places.projectTrusted ? [join(places.cwd, ".claude", "settings.json"), join(places.cwd, ".claude", "settings.local.json")] : [])];
  const result: ClaudePluginSettings = { enabled: new Map(), marketplaces: new Map() };
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, "utf8"));
    } catch {
      continue;
    }
    if (!isRecord(parsed)) continue;
    const enabled = parsed["enabledPlugins"];
    if (isRecord(enabled)) {
      for (const [key, value] of Object.entries(enabled)) {
        if (typeof value === "boolean") result.enabled.set(key, { on: value, file });
        else if (Array.isArray(value)) result.enabled.set(key, { on: value.length > 0, file });
      }
    }
    const known = parsed["extraKnownMarketplaces"];
    if (isRecord(known)) {
      for (const [name, value] of Object.entries(known)) {
        const source = marketplaceSourceText(value);
        if (source !== undefined) result.marketplaces.set(name, { source: source.startsWith("./") || source.startsWith("../") ? join(places.cwd, source) : source, file });
      }
    }
  }
  return result;
}
