/**
 * Azure OpenAI (issue 34): the openai package's AzureOpenAI client under cairn's Chat Completions
 * and Responses providers. A key (AZURE_OPENAI_API_KEY, `--api-key`) goes in the `api-key` header;
 * without one, a Microsoft Entra ID token from @azure/identity's DefaultAzureCredential (loaded
 * only then) goes in `Authorization`.
 */
import { AzureOpenAI } from "openai";
import { ProviderError } from "../errors.js";
import { OpenAiProvider } from "../openai.js";
import { OpenAiResponsesProvider } from "../openai-responses.js";
import type { StallTimeouts } from "../stall.js";
import type { ModelInfo, Provider } from "../types.js";
import { firstSet } from "./cloud-options.js";
import type { AzureSettings } from "./cloud-options.js";

/** Takes both Chat Completions and the Responses API. */
export const azureDefaultApiVersion = "2025-04-01-preview";
const entraScope = "https://cognitiveservices.azure.com/.default";
const entraRemedy = "run `az login` (or set AZURE_OPENAI_API_KEY, or the AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET of a service principal)";

export interface AzureProviderOptions {
  apiKey?: string;
  model: ModelInfo;
  /** `--base-url`: the resource's endpoint. */
  baseUrl?: string;
  azure?: AzureSettings;
  environment: Record<string, string | undefined>;
  stall?: Partial<StallTimeouts>;
  fetch?: typeof fetch;
  onNotice?: (message: string) => void;
}

/** An Entra ID token provider that fails as an unrecoverable auth error saying what to run. */
async function entraTokenProvider(env: Record<string, string | undefined>): Promise<() => Promise<string>> {
  const { ClientSecretCredential, DefaultAzureCredential, getBearerTokenProvider } = await import("@azure/identity");
  // A service principal in the environment is read from `env`: cairn's own process.env holds no AZURE_* secrets.
  const [tenant, client, secret] = [env["AZURE_TENANT_ID"], env["AZURE_CLIENT_ID"], env["AZURE_CLIENT_SECRET"]].map((value) => firstSet(value));
  const credential = tenant !== undefined && client !== undefined && secret !== undefined ? new ClientSecretCredential(tenant, client, secret) : new DefaultAzureCredential();
  const tokens = getBearerTokenProvider(credential, entraScope);
  return async () => {
    try {
      return await tokens();
    } catch (error) {
      const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new ProviderError({ kind: "auth", message: `azure: no Microsoft Entra ID token: ${detail ?? ""}. To fix: ${entraRemedy}.`, cause: error });
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
    ...(options.stall === undefined ? {} : { stall: options.stall }),
    ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
  };
  // Azure serves the newest models only: the output limit goes in max_completion_tokens.
  if (settings.api === "responses") return new OpenAiResponsesProvider(common);
  return new OpenAiProvider({ ...common, compatibility: { maxTokensField: "max_completion_tokens" } });
}
