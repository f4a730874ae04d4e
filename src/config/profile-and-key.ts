/**
 * The provider profile in use and the API key: profiles live in cairn's own
 * config files (a project's may extend the user's of the same name, never
 * with a key); the key comes from a flag, the environment, the profile or the
 * user config, never from a project.
 */
import { ConfigError } from "./errors.js";
import type { ConfigFile } from "./config-file.js";
import type { Layer } from "./layers.js";
import { providerKeyVariable } from "./api-key.js";
import { isCloudProvider } from "../llm/cloud/cloud-options.js";
import { SecretValue } from "./secret.js";
import type { CliFlags, ProviderName, ProviderProfile, SettingSource } from "./types.js";

interface ProfileFile {
  path: string;
  config: ConfigFile;
}

export function selectProfile(options: { layers: Layer[]; user: ProfileFile | undefined; project: ProfileFile | undefined }): { name: string; profile: ProviderProfile; file: string; selectedBy: Layer } | undefined {
  const selectedBy = options.layers.find((layer) => layer.values.has("profile"));
  if (selectedBy === undefined) return undefined;
  const name = selectedBy.values.get("profile") as string;
  for (const file of [options.project, options.user]) {
    const profile = file?.config.profiles?.[name];
    if (file && profile) {
      // A project profile of the same name extends the user's (whose key it cannot hold).
      const userProfile = file === options.project ? options.user?.config.profiles?.[name] : undefined;
      return { name, profile: { ...userProfile, ...profile }, file: file.path, selectedBy };
    }
  }
  const defined = [options.user, options.project].flatMap((file) => Object.keys(file?.config.profiles ?? {}));
  throw new ConfigError(
    `profile "${name}" (from ${selectedBy.detail("profile")}) is not defined. ` +
      (defined.length > 0 ? `Defined profiles: ${[...new Set(defined)].join(", ")}.` : "No profiles are defined.") +
      ` Add it under "profiles" in ${options.user?.path ?? "the user config"}.`,
  );
}

/** `--api-key`, else `CAIRN_API_KEY`, else the provider's own variable, else the profile's, else the user config's. */
export function selectApiKey(options: {
  provider: ProviderName;
  flags: CliFlags;
  env: NodeJS.ProcessEnv;
  layers: Layer[];
  sources: Record<string, SettingSource>;
  sourceDetails: Record<string, string>;
}): SecretValue | undefined {
  const { provider, flags, env, sources, sourceDetails } = options;
  // Vertex AI takes no key, only Google's credentials.
  if (provider === "mock" || provider === "vertex") return undefined;
  // A cloud provider's key comes from its own variable, a flag or the profile: never another provider's.
  const cloud = isCloudProvider(provider);
  const found = (source: SettingSource, detail: string, key: string | undefined): SecretValue | undefined => {
    if (key === undefined || key.trim() === "") return undefined;
    sources["apiKey"] = source;
    sourceDetails["apiKey"] = detail;
    return new SecretValue(key.trim());
  };
  const variable = providerKeyVariable(provider);
  const fromFlagOrEnv =
    found("flag", "--api-key", flags.apiKey) ??
    (cloud ? undefined : found("env", "CAIRN_API_KEY", env["CAIRN_API_KEY"])) ??
    (variable === undefined ? undefined : found("env", variable, env[variable])) ??
    (provider === "gemini" ? found("env", "GOOGLE_API_KEY", env["GOOGLE_API_KEY"]) : undefined);
  if (fromFlagOrEnv) return fromFlagOrEnv;
  for (const layer of options.layers) {
    if (cloud && !layer.source.startsWith("profile:")) continue;
    const key = layer.values.get("apiKey");
    if (typeof key === "string") return found(layer.source, layer.detail("apiKey"), key);
  }
  return undefined;
}
