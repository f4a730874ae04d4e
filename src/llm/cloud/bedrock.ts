/**
 * Amazon Bedrock (issue 34). Anthropic models go through @anthropic-ai/bedrock-sdk, so thinking,
 * prompt caching and tool use behave as with Anthropic's own API (InvokeModelWithResponseStream,
 * signed with SigV4 or a Bedrock API key); every other model through the Converse stream API.
 * Model ids may be cross-region inference profiles (`us.`, `eu.`, `global.` ...).
 */
import type { Provider } from "../types.js";
import { anthropicOnCloud, cloudClientOptions } from "./anthropic-on-cloud.js";
import type { AnthropicCloudOptions } from "./anthropic-on-cloud.js";
import { awsSetup } from "./aws-setup.js";
import type { BedrockSettings } from "./cloud-options.js";

export interface BedrockProviderOptions extends AnthropicCloudOptions {
  /** A Bedrock API key (else AWS_BEARER_TOKEN_BEDROCK, else AWS credentials). */
  apiKey?: string;
  bedrock?: BedrockSettings;
}

/** Anthropic's models on Bedrock: `anthropic.claude-...`, with or without an inference-profile prefix. */
export function isBedrockAnthropicModel(id: string): boolean {
  return /^([a-z-]+\.)?anthropic\./.test(id) || id.startsWith("claude-");
}

export async function createBedrockProvider(options: BedrockProviderOptions): Promise<Provider> {
  const aws = awsSetup({ settings: options.bedrock, environment: options.environment, apiKey: options.apiKey });
  if (!isBedrockAnthropicModel(options.model.id)) {
    const { BedrockConverseProvider } = await import("./bedrock-converse.js");
    return new BedrockConverseProvider({ model: options.model, aws, ...(options.stall === undefined ? {} : { stall: options.stall }), ...(options.baseUrl === undefined ? {} : { endpoint: options.baseUrl }) });
  }
  const { AnthropicBedrock } = await import("@anthropic-ai/bedrock-sdk");
  const client = new AnthropicBedrock({
    awsRegion: aws.region,
    baseURL: options.baseUrl ?? `https://bedrock-runtime.${aws.region}.amazonaws.com`,
    // null: never the environment's ANTHROPIC_API_KEY; a Bedrock API key goes as a bearer token.
    apiKey: aws.bearerToken ?? null,
    providerChainResolver: () => Promise.resolve(aws.credentials),
    ...cloudClientOptions("bedrock-2023-05-31", options),
  });
  return anthropicOnCloud(client, { name: "bedrock", authRemedy: aws.remedy }, options);
}
