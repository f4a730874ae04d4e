export { resolveSettings, defaultModels, defaultAutoApprove, type ResolveSettingsOptions } from "./resolve.js";
export { requireApiKey, apiKeyNeeded, isLoopbackUrl, missingKeyAdvice, providerKeyVariable } from "./api-key.js";
export { isTrusted, trustFolder, trustStorePath } from "./trust.js";
export { ConfigError } from "./errors.js";
export { SecretValue, maskSecret } from "./secret.js";
export { defaultUserConfigDir, userConfigPath, projectConfigPath } from "./paths.js";
export { parseDuration } from "./layers.js";
export type * from "./types.js";
export { trustQuestion } from "./trust-question.js";
