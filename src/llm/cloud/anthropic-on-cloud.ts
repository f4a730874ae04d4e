/**
 * Anthropic's models on a cloud (Bedrock, Vertex AI): the cloud's own client (@anthropic-ai/bedrock-sdk,
 * @anthropic-ai/vertex-sdk) under cairn's Anthropic provider, so thinking, prompt caching and tool
 * use behave as with Anthropic's API. What both clouds set the same way is here.
 */
import type { AnthropicClient } from "../anthropic.js";
import type { Provider } from "../types.js";
import { passedOn } from "./cloud-options.js";
import type { CloudProviderOptions } from "./cloud-options.js";

export type AnthropicCloudOptions = CloudProviderOptions & { thinkingBudgetTokens?: number };

/**
 * The client options both clouds take: no retries of the SDK's own (the task retries), the cloud's
 * documented version of the Messages API (the client moves it from this header into the body), the fetch.
 */
export function cloudClientOptions(apiVersion: string, options: CloudProviderOptions): { maxRetries: 0; defaultHeaders: Record<string, string>; fetch?: typeof fetch } {
  return { maxRetries: 0, defaultHeaders: { "anthropic-version": apiVersion }, ...(options.fetch === undefined ? {} : { fetch: options.fetch }) };
}

export async function anthropicOnCloud(client: AnthropicClient, cloud: { name: "bedrock" | "vertex"; authRemedy: string }, options: AnthropicCloudOptions): Promise<Provider> {
  const { AnthropicProvider } = await import("../anthropic.js");
  return new AnthropicProvider({
    client,
    name: cloud.name,
    model: options.model,
    authRemedy: cloud.authRemedy,
    ...passedOn(options),
    ...(options.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: options.thinkingBudgetTokens }),
  });
}
