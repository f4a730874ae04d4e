/**
 * Prices per region where they differ: Amazon Bedrock and Google Vertex AI serve recent Claude
 * models from a global endpoint at Anthropic's own price and from regional ones for 10% more.
 *
 * Source: Anthropic's pricing page, "Third-party platform pricing"
 * (https://platform.claude.com/docs/en/about-claude/pricing, read December 2026): "Regional and
 * multi-region endpoints include a 10% premium over global endpoints" on Bedrock and Google Cloud;
 * "This pricing structure applies to Claude Sonnet 4.5, Haiku 4.5, Opus 4.5, and all future
 * models. Earlier models (Claude Opus 4.1 and prior releases) retain their existing pricing."
 * Amazon's guide says the same from its side: the global cross-Region inference profile costs
 * about 10% less than the geographic ones
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/global-cross-region-inference.html).
 *
 * On Bedrock the endpoint is in the model id: `global.` is the global profile; a geographic
 * profile (`us.`, `eu.`, `apac.`, `jp.`, `au.` ...) or a bare in-region id is regional. On
 * Vertex AI it is the location: `global`, or a multi-region (`us`, `eu`) or a region (`us-east5`).
 */
import type { ModelInfo } from "./types.js";

export type PricedEndpoint = "global" | "regional";

export const regionalPremium = 1.1;

/** Whether a catalogue key is a Claude model of the 4.5 generation or later (the ones with two prices). */
export function hasRegionalPremium(catalogueKey: string): boolean {
  const match = /^claude-[a-z]+-(\d+)(?:-(\d+))?$/.exec(catalogueKey);
  if (match === null) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 5);
}

/** The prices of `info` at a regional endpoint (rounded clear of float noise: 3 × 1.1 is 3.3). */
export function atRegionalPrice(info: ModelInfo): ModelInfo {
  const scale = (price: number): number => Math.round(price * regionalPremium * 1e6) / 1e6;
  return {
    ...info,
    inputPrice: scale(info.inputPrice),
    outputPrice: scale(info.outputPrice),
    ...(info.cacheReadPrice === undefined ? {} : { cacheReadPrice: scale(info.cacheReadPrice) }),
    ...(info.cacheWritePrice === undefined ? {} : { cacheWritePrice: scale(info.cacheWritePrice) }),
  };
}

/**
 * Which endpoint a cloud provider bills `modelId` at: Bedrock by the id's inference profile,
 * Vertex AI by its location; undefined for providers with one price everywhere.
 */
export function pricedEndpoint(provider: string, modelId: string, vertexLocation: string): PricedEndpoint | undefined {
  if (provider === "bedrock") return modelId.startsWith("global.") ? "global" : "regional";
  if (provider === "vertex") return vertexLocation === "global" ? "global" : "regional";
  return undefined;
}
