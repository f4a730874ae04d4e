import { ConfigError } from "./errors.js";
import type { ProviderName, ResolvedSettings } from "./types.js";
import { isCloudProvider } from "../llm/cloud/cloud-options.js";

/** The environment variable a provider's key is read from after `CAIRN_API_KEY`. */
export function providerKeyVariable(provider: ProviderName): string | undefined {
  if (provider === "anthropic") return "ANTHROPIC_API_KEY";
  if (provider === "openai" || provider === "openai-responses") return "OPENAI_API_KEY";
  if (provider === "gemini") return "GEMINI_API_KEY";
  if (provider === "azure") return "AZURE_OPENAI_API_KEY";
  // Bedrock API keys; without one, the AWS credential chain.
  if (provider === "bedrock") return "AWS_BEARER_TOKEN_BEDROCK";
  return undefined;
}

/**
 * A server on this machine (Ollama, LM Studio, llama.cpp, cairn's scripted
 * server) needs no key: nothing leaves the machine.
 */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether this provider and address can run without a key. */
export function apiKeyNeeded(settings: Pick<ResolvedSettings, "provider" | "baseUrl">): boolean {
  // The cloud providers fall back on their own credentials (Entra ID, the AWS chain, Google's ADC).
  return settings.provider !== "mock" && !isCloudProvider(settings.provider) && !isLoopbackUrl(settings.baseUrl);
}

/** What the user should do to supply a key for `provider`. */
export function missingKeyAdvice(provider: ProviderName): string {
  const variable = providerKeyVariable(provider);
  if (provider === "gemini") return "set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass --api-key";
  return variable ? `set ${variable} or pass --api-key` : "pass --api-key";
}

/**
 * The key to hand to the provider SDK. Undefined only when none is needed
 * (mock provider, or a server on this machine); otherwise a `ConfigError`
 * (exit status 2) says exactly what to set.
 */
export function requireApiKey(settings: ResolvedSettings): string | undefined {
  if (settings.apiKey !== undefined) return settings.apiKey.reveal();
  if (!apiKeyNeeded(settings)) return undefined;
  const where = settings.baseUrl === undefined ? "" : ` at ${settings.baseUrl}`;
  throw new ConfigError(`no API key for ${settings.provider}${where}: ${missingKeyAdvice(settings.provider)} (or CAIRN_API_KEY, or "apiKey" in the user config).`);
}
