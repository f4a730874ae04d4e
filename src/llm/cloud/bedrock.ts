/**
 * Amazon Bedrock (issue 34). Anthropic models go through @anthropic-ai/bedrock-sdk, so thinking,
 * prompt caching and tool use behave as with Anthropic's own API (InvokeModelWithResponseStream,
 * signed with SigV4 or a Bedrock API key); every other model through the Converse stream API.
 * Model ids may be cross-region inference profiles (`us.`, `eu.`, `global.` ...).
 */
import type { StallTimeouts } from "../stall.js";
import type { ModelInfo, Provider } from "../types.js";
import { awsSetup } from "./aws-setup.js";
import type { BedrockSettings } from "./cloud-options.js";

export interface BedrockProviderOptions {
  model: ModelInfo;
  /** A Bedrock API key (else AWS_BEARER_TOKEN_BEDROCK, else AWS credentials). */
  apiKey?: string;
  /** `--base-url`: an endpoint other than bedrock-runtime.REGION.amazonaws.com. */
  baseUrl?: string;
  bedrock?: BedrockSettings;
  environment: Record<string, string | undefined>;
  stall?: Partial<StallTimeouts>;
  fetch?: typeof fetch;
  thinkingBudgetTokens?: number;
  onNotice?: (message: string) => void;
}

/** Anthropic's models on Bedrock: `anthropic.claude-...`, with or without an inference-profile prefix. */
export function isBedrockAnthropicModel(id: string): boolean {
  return /^([a-z-]+\.)?anthropic\./.test(id) || id.startsWith("claude-");
}

export async function createBedrockProvider(options: BedrockProviderOptions): Promise<Provider> {
  const aws = awsSetup({ settings: options.bedrock, environment: options.environment, apiKey: options.apiKey });
  const stall = options.stall === undefined ? {} : { stall: options.stall };
  if (!isBedrockAnthropicModel(options.model.id)) {
    const { BedrockConverseProvider } = await import("./bedrock-converse.js");
    return new BedrockConverseProvider({ model: options.model, aws, ...stall, ...(options.baseUrl === undefined ? {} : { endpoint: options.baseUrl }) });
  }
  const [{ AnthropicBedrock }, { AnthropicProvider }] = await Promise.all([import("@anthropic-ai/bedrock-sdk"), import("../anthropic.js")]);
  const client = new AnthropicBedrock({
    awsRegion: aws.region,
    baseURL: options.baseUrl ?? `https://bedrock-runtime.${aws.region}.amazonaws.com`,
    // null: never the environment's ANTHROPIC_API_KEY; a Bedrock API key goes as a bearer token.
    apiKey: aws.bearerToken ?? null,
    providerChainResolver: () => Promise.resolve(aws.credentials),
    maxRetries: 0,
    // Bedrock's documented version of the Messages API; the client moves it from this header into the body.
    defaultHeaders: { "anthropic-version": "bedrock-2023-05-31" },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  return new AnthropicProvider({
    client,
    name: "bedrock",
    model: options.model,
    authRemedy: aws.remedy,
    ...stall,
    ...(options.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: options.thinkingBudgetTokens }),
    ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
  });
}
