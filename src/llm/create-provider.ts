import { ProviderError } from "./errors.js";
import { defaultModels, modelInfo } from "./models.js";
import { boundedReadsFetch } from "./bounded-reads-fetch.js";
import { proxyFetch } from "./proxy-fetch.js";
import { pricedEndpoint } from "./regional-prices.js";
import { vertexLocation } from "./cloud/cloud-options.js";
import type { OpenAiCompatibility } from "./openai.js";
import type { Scenario } from "./scripted/scenario.js";
import type { StallTimeouts } from "./stall.js";
import type { ModelInfo, Provider } from "./types.js";
import type { CloudSettings } from "./cloud/cloud-options.js";

export type ProviderName = "anthropic" | "openai" | "openai-responses" | "gemini" | "azure" | "bedrock" | "vertex" | "mock";

export interface CreateProviderOptions {
  provider: ProviderName;
  /** Default: the provider's default model (see `defaultModels`). */
  model?: string;
  /** Default: ANTHROPIC_API_KEY or OPENAI_API_KEY from `environment`. */
  apiKey?: string;
  baseUrl?: string;
  /** Required for "mock". */
  scenario?: Scenario;
  stall?: StallTimeouts;
  /** The user's configuration over the catalogue (context window, prices ...). */
  modelOverrides?: Partial<ModelInfo>;
  /** Anthropic: thinking budget (adaptive thinking on models that decide their own). */
  thinkingBudgetTokens?: number;
  /** OpenAI-compatible servers: flags over the defaults for the base URL. */
  compatibility?: Partial<OpenAiCompatibility>;
  /** Told things the user should know that are not errors (reasoning left out on a provider switch). */
  onNotice?: (message: string) => void;
  /** Azure OpenAI, Bedrock, Vertex AI: where their models live (issue 34). */
  cloud?: CloudSettings;
  /** Where API keys are looked up; default `process.env`. */
  environment?: Record<string, string | undefined>;
}

export const apiKeyVariables = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-responses": "OPENAI_API_KEY",
  gemini: "GEMINI_API_KEY",
} as const;

function missingKey(provider: keyof typeof apiKeyVariables): ProviderError {
  const variable = apiKeyVariables[provider];
  return new ProviderError({
    kind: "auth",
    message: `no API key for ${provider}: set ${variable} (or pass --api-key); for a local OpenAI-compatible server pass --base-url instead`,
  });
}

/**
 * The provider for a run. Rejects with an `auth` ProviderError at once when a key is needed and
 * missing: the user learns which variable to set before any request is made. Only the chosen
 * provider's SDK is loaded (each takes a noticeable share of start-up).
 */
export async function createProvider(options: CreateProviderOptions): Promise<Provider> {
  const environment = options.environment ?? process.env;
  if (options.baseUrl !== undefined && !URL.canParse(options.baseUrl)) {
    throw new Error(`the base URL "${options.baseUrl}" is not a valid URL; for example http://127.0.0.1:11434/v1 for Ollama`);
  }
  const modelId = options.model ?? defaultModels[options.provider];
  // Bedrock and Vertex AI bill recent Claude models at the endpoint used (regional-prices.ts); the user's overrides still win.
  const endpoint = pricedEndpoint(options.provider, modelId, vertexLocation(options.cloud?.vertex, environment));
  const model = modelInfo(modelId, { endpoint, ...(options.modelOverrides === undefined ? {} : { overrides: options.modelOverrides }) });
  const stall = options.stall === undefined ? {} : { stall: options.stall };
  const baseUrl = options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl };
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY for every HTTP provider (#20 item 4).
  const proxied = options.provider === "mock" ? undefined : await proxyFetch(environment);
  const fetchOption = proxied === undefined ? {} : { fetch: proxied };
  const notice = options.onNotice === undefined ? {} : { onNotice: options.onNotice };
  /** What the OpenAI-style providers share; a local server's base URL needs no key. */
  const keyless = (apiKey: string | undefined) => ({ ...(apiKey === undefined || apiKey === "" ? {} : { apiKey }), model, ...baseUrl, ...stall, ...fetchOption, ...notice });
  /** The OpenAI SDK's event-stream decoder is quadratic in the size of a read: it gets small ones (bounded-reads-fetch.ts). */
  const openAiStyle = (apiKey: string | undefined) => ({ ...keyless(apiKey), fetch: boundedReadsFetch(proxied) });
  switch (options.provider) {
    case "mock": {
      if (options.scenario === undefined) {
        throw new Error("the mock provider needs a scenario (see docs/scripted-llm.md)");
      }
      const { MockProvider } = await import("./scripted/mock-provider.js");
      return new MockProvider({ scenario: options.scenario, model, ...stall });
    }
    case "anthropic": {
      const apiKey = options.apiKey ?? environment[apiKeyVariables.anthropic];
      if (apiKey === undefined || apiKey === "") throw missingKey("anthropic");
      const { AnthropicProvider } = await import("./anthropic.js");
      return new AnthropicProvider({
        apiKey,
        model,
        ...baseUrl,
        ...stall,
        ...fetchOption,
        ...(options.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: options.thinkingBudgetTokens }),
        ...notice,
      });
    }
    case "openai": {
      const apiKey = options.apiKey ?? environment[apiKeyVariables.openai];
      // Local servers (Ollama, LM Studio, llama.cpp) need no key; OpenAI itself does.
      if ((apiKey === undefined || apiKey === "") && options.baseUrl === undefined) throw missingKey("openai");
      const { OpenAiProvider } = await import("./openai.js");
      return new OpenAiProvider({ ...openAiStyle(apiKey), ...(options.compatibility === undefined ? {} : { compatibility: options.compatibility }) });
    }
    case "openai-responses": {
      // Same rules as "openai": a base URL of a local server needs no key.
      const apiKey = options.apiKey ?? environment[apiKeyVariables["openai-responses"]];
      if ((apiKey === undefined || apiKey === "") && options.baseUrl === undefined) throw missingKey("openai-responses");
      const { OpenAiResponsesProvider } = await import("./openai-responses.js");
      return new OpenAiResponsesProvider(openAiStyle(apiKey));
    }
    case "gemini": {
      const apiKey = options.apiKey ?? environment[apiKeyVariables.gemini] ?? environment["GOOGLE_API_KEY"];
      if ((apiKey === undefined || apiKey === "") && options.baseUrl === undefined) throw missingKey("gemini");
      const { GeminiProvider } = await import("./gemini.js");
      return new GeminiProvider(keyless(apiKey));
    }
    case "azure": {
      const { createAzureProvider } = await import("./cloud/azure.js");
      const apiKey = options.apiKey ?? environment["AZURE_OPENAI_API_KEY"];
      return createAzureProvider({
        ...keyless(apiKey),
        fetch: boundedReadsFetch(proxied),
        environment,
        ...(options.cloud?.azure === undefined ? {} : { azure: options.cloud.azure }),
      });
    }
    case "bedrock": {
      const { createBedrockProvider } = await import("./cloud/bedrock.js");
      return createBedrockProvider({
        ...keyless(options.apiKey),
        environment,
        ...(options.cloud?.bedrock === undefined ? {} : { bedrock: options.cloud.bedrock }),
        ...(options.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: options.thinkingBudgetTokens }),
      });
    }
    case "vertex": {
      const { createVertexProvider } = await import("./cloud/vertex.js");
      return createVertexProvider({
        ...keyless(undefined),
        environment,
        ...(options.cloud?.vertex === undefined ? {} : { vertex: options.cloud.vertex }),
        ...(options.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: options.thinkingBudgetTokens }),
      });
    }
  }
}
