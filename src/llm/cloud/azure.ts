/**
 * Azure OpenAI (issue 34): the openai package's AzureOpenAI client under cairn's Chat Completions
 * and Responses providers. A key (AZURE_OPENAI_API_KEY, `--api-key`) goes in the `api-key` header;
 * without one, a Microsoft Entra ID token from @azure/identity's DefaultAzureCredential (loaded
 * only then) goes in `Authorization`.
 */
import { AzureOpenAI } from "openai";
import { cloudCredentialsError, ProviderError } from "../errors.js";
import { OpenAiProvider } from "../openai.js";
import { OpenAiResponsesProvider } from "../openai-responses.js";
import type { Provider } from "../types.js";
import { firstSet, passedOn } from "./cloud-options.js";
import type { AzureSettings, CloudProviderOptions } from "./cloud-options.js";

/** Takes both Chat Completions and the Responses API. */
export const azureDefaultApiVersion = "2025-04-01-preview";
const entraScope = "https://cognitiveservices.azure.com/.default";
const entraRemedy = "run `az login` (or set AZURE_OPENAI_API_KEY, or the AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET of a service principal, or AZURE_FEDERATED_TOKEN_FILE for a workload identity)";

export interface AzureProviderOptions extends CloudProviderOptions {
  apiKey?: string;
  azure?: AzureSettings;
}

/** Microsoft's own clouds (public, US Government, China): MSAL discovers their instance metadata. */
const microsoftAuthorities = new Set(["login.microsoftonline.com", "login.microsoftonline.us", "login.chinacloudapi.cn", "login.partner.microsoftonline.cn"]);

/**
 * Where Entra ID tokens come from: AZURE_AUTHORITY_HOST (a sovereign cloud, Azure Stack, a
 * private authority: one that is not Microsoft's is trusted as it is, without instance discovery
 * at login.microsoftonline.com).
 */
function authorityOptions(env: Record<string, string | undefined>): { authorityHost?: string; disableInstanceDiscovery?: boolean } {
  const authorityHost = firstSet(env["AZURE_AUTHORITY_HOST"]);
  if (authorityHost === undefined) return {};
  if (!URL.canParse(authorityHost) || !authorityHost.startsWith("https://")) {
    throw new ProviderError({ kind: "bad_request", retryable: false, message: `azure: AZURE_AUTHORITY_HOST "${authorityHost}" is not an https:// URL; for example https://login.microsoftonline.us` });
  }
  return { authorityHost, disableInstanceDiscovery: !microsoftAuthorities.has(new URL(authorityHost).hostname) };
}

/**
 * An Entra ID token provider that fails with a CloudCredentialsError saying what to run. The
 * environment's service principal or workload identity is read from `env`: cairn's own
 * process.env holds no AZURE_* variables, so the library's own look-ups there find nothing.
 */
async function entraTokenProvider(env: Record<string, string | undefined>): Promise<() => Promise<string>> {
  const { ClientSecretCredential, DefaultAzureCredential, WorkloadIdentityCredential, getBearerTokenProvider } = await import("@azure/identity");
  const [tenantId, clientId, secret, tokenFilePath] = ["AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_FEDERATED_TOKEN_FILE"].map((name) => firstSet(env[name]));
  const authority = authorityOptions(env);
  const credential =
    tenantId !== undefined && clientId !== undefined && secret !== undefined
      ? new ClientSecretCredential(tenantId, clientId, secret, authority)
      : tenantId !== undefined && clientId !== undefined && tokenFilePath !== undefined
        ? new WorkloadIdentityCredential({ tenantId, clientId, tokenFilePath, ...authority })
        : new DefaultAzureCredential(authority);
  const tokens = getBearerTokenProvider(credential, entraScope);
  return async () => {
    try {
      return await tokens();
    } catch (error) {
      // Whatever the openai client wraps it in, cairn reads it as an unrecoverable auth error (errors.ts).
      throw cloudCredentialsError("no Microsoft Entra ID token", entraRemedy, error);
    }
  };
}

export async function createAzureProvider(options: AzureProviderOptions): Promise<Provider> {
  const env = options.environment;
  const settings = options.azure ?? {};
  const endpoint = firstSet(options.baseUrl, settings.endpoint, env["AZURE_OPENAI_ENDPOINT"]);
  if (endpoint === undefined) {
    throw new ProviderError({
      kind: "bad_request",
      retryable: false,
      message: 'azure needs your resource\'s endpoint: set AZURE_OPENAI_ENDPOINT (https://RESOURCE.openai.azure.com), "azure": {"endpoint": ...} in the config, or --base-url',
    });
  }
  const apiVersion = firstSet(settings.apiVersion, env["OPENAI_API_VERSION"]) ?? azureDefaultApiVersion;
  const deployment = firstSet(settings.deployment, env["AZURE_OPENAI_DEPLOYMENT"]) ?? options.model.id;
  const apiKey = firstSet(options.apiKey);
  const credentials = apiKey === undefined ? { azureADTokenProvider: await entraTokenProvider(env) } : { apiKey };
  const client = new AzureOpenAI({
    // The base URL, never `endpoint`: the client would otherwise read OPENAI_BASE_URL, another provider's.
    baseURL: `${endpoint.replace(/\/+$/, "").replace(/\/openai$/, "")}/openai`,
    apiVersion,
    deployment,
    ...credentials,
    maxRetries: 0,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const common = {
    client,
    name: "azure",
    model: options.model,
    apiKeyEnv: "AZURE_OPENAI_API_KEY",
    ...(apiKey === undefined ? { authRemedy: entraRemedy } : {}),
    ...passedOn(options),
  };
  // Azure serves the newest models only: the output limit goes in max_completion_tokens.
  if (settings.api === "responses") return new OpenAiResponsesProvider(common);
  return new OpenAiProvider({ ...common, compatibility: { maxTokensField: "max_completion_tokens" } });
}
