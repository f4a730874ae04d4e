import { atRegionalPrice, hasRegionalPremium } from "./regional-prices.js";
import type { PricedEndpoint } from "./regional-prices.js";
import type { ModelInfo, UsageChunk } from "./types.js";

export type ProviderFamily = "anthropic" | "openai" | "gemini" | "bedrock";

type CatalogueEntry = Omit<ModelInfo, "id"> & { family: ProviderFamily };

/**
 * Models with their published limits and prices (USD per million tokens), as listed on the
 * providers' pricing pages in November 2026. Anthropic cache writes are the 5-minute price;
 * OpenAI bills no cache writes. Older models stay so existing configurations keep their prices.
 */
const catalogue: Record<string, CatalogueEntry> = {
  "claude-fable-5-1": anthropic({ context: 1_000_000, output: 128_000, input: 10, output$: 50, cacheRead: 0.25 }),
  "claude-opus-5-5": anthropic({ context: 1_000_000, output: 128_000, input: 4, output$: 20 }),
  "claude-sonnet-5-5": anthropic({ context: 1_000_000, output: 128_000, input: 2, output$: 10, cacheRead: 0.1 }),
  "claude-haiku-5-5": anthropic({ context: 1_000_000, output: 128_000, input: 0.1, output$: 0.5 }),
  "claude-opus-5": anthropic({ context: 1_000_000, output: 128_000, input: 5, output$: 25 }),
  "claude-sonnet-5": anthropic({ context: 1_000_000, output: 128_000, input: 2, output$: 10 }),
  "claude-opus-4-8": anthropic({ context: 1_000_000, output: 128_000, input: 5, output$: 25 }),
  "claude-opus-4-7": anthropic({ context: 1_000_000, output: 128_000, input: 5, output$: 25 }),
  "claude-opus-4-6": anthropic({ context: 1_000_000, output: 128_000, input: 5, output$: 25 }),
  "claude-sonnet-4-6": anthropic({ context: 1_000_000, output: 128_000, input: 3, output$: 15 }),
  "claude-opus-4-5": anthropic({ context: 200_000, output: 64_000, input: 5, output$: 25 }),
  "claude-opus-4-1": anthropic({ context: 200_000, output: 32_000, input: 15, output$: 75 }),
  "claude-opus-4-0": anthropic({ context: 200_000, output: 32_000, input: 15, output$: 75 }),
  "claude-sonnet-4-5": anthropic({ context: 200_000, output: 64_000, input: 3, output$: 15 }),
  "claude-sonnet-4-0": anthropic({ context: 200_000, output: 64_000, input: 3, output$: 15 }),
  "claude-3-7-sonnet": anthropic({ context: 200_000, output: 64_000, input: 3, output$: 15 }),
  "claude-haiku-4-5": anthropic({ context: 200_000, output: 64_000, input: 1, output$: 5 }),
  "claude-3-5-haiku": anthropic({ context: 200_000, output: 8_192, input: 0.8, output$: 4, reasoning: false }),
  "gpt-5.4": openai({ context: 400_000, output: 128_000, input: 2.5, output$: 15, cached: 0.25, reasoning: true }),
  "gpt-5.4-mini": openai({ context: 400_000, output: 128_000, input: 0.75, output$: 4.5, cached: 0.075, reasoning: true }),
  "gpt-5.1": openai({ context: 400_000, output: 128_000, input: 1.25, output$: 10, cached: 0.125, reasoning: true }),
  "gpt-5": openai({ context: 400_000, output: 128_000, input: 1.25, output$: 10, cached: 0.125, reasoning: true }),
  "gpt-5-mini": openai({ context: 400_000, output: 128_000, input: 0.25, output$: 2, cached: 0.025, reasoning: true }),
  "gpt-5-nano": openai({ context: 400_000, output: 128_000, input: 0.05, output$: 0.4, cached: 0.005, reasoning: true }),
  "gpt-4.1": openai({ context: 1_047_576, output: 32_768, input: 2, output$: 8, cached: 0.5, reasoning: false }),
  "gpt-4.1-mini": openai({ context: 1_047_576, output: 32_768, input: 0.4, output$: 1.6, cached: 0.1, reasoning: false }),
  "gpt-4.1-nano": openai({ context: 1_047_576, output: 32_768, input: 0.1, output$: 0.4, cached: 0.025, reasoning: false }),
  "gpt-4o": openai({ context: 128_000, output: 16_384, input: 2.5, output$: 10, cached: 1.25, reasoning: false }),
  "gpt-4o-mini": openai({ context: 128_000, output: 16_384, input: 0.15, output$: 0.6, cached: 0.075, reasoning: false }),
  o3: openai({ context: 200_000, output: 100_000, input: 2, output$: 8, cached: 0.5, reasoning: true }),
  "o3-mini": openai({ context: 200_000, output: 100_000, input: 1.1, output$: 4.4, cached: 0.55, reasoning: true, images: false }),
  "o4-mini": openai({ context: 200_000, output: 100_000, input: 1.1, output$: 4.4, cached: 0.275, reasoning: true }),
  // Gemini: prices for prompts up to 200k tokens (longer prompts cost more); thinking is billed as output.
  "gemini-3-pro-preview": gemini({ context: 1_048_576, output: 65_536, input: 2, output$: 12, cached: 0.2 }),
  "gemini-2.5-pro": gemini({ context: 1_048_576, output: 65_536, input: 1.25, output$: 10, cached: 0.125 }),
  "gemini-2.5-flash": gemini({ context: 1_048_576, output: 65_536, input: 0.3, output$: 2.5, cached: 0.03 }),
  "gemini-2.5-flash-lite": gemini({ context: 1_048_576, output: 65_536, input: 0.1, output$: 0.4, cached: 0.01 }),
  // Amazon Bedrock's own and hosted models, served through the Converse API (us-east-1 on-demand prices).
  "amazon.nova-premier": bedrock({ context: 1_000_000, output: 32_000, input: 2.5, output$: 12.5, cached: 0.625 }),
  "amazon.nova-pro": bedrock({ context: 300_000, output: 10_000, input: 0.8, output$: 3.2, cached: 0.2 }),
  "amazon.nova-lite": bedrock({ context: 300_000, output: 10_000, input: 0.06, output$: 0.24, cached: 0.015 }),
  "amazon.nova-micro": bedrock({ context: 128_000, output: 10_000, input: 0.035, output$: 0.14, cached: 0.00875, images: false }),
  "meta.llama4-maverick-17b-instruct": bedrock({ context: 1_000_000, output: 8_192, input: 0.24, output$: 0.97 }),
  "mistral.mistral-large-2407": bedrock({ context: 128_000, output: 8_192, input: 2, output$: 6, images: false }),
  "deepseek.r1": bedrock({ context: 128_000, output: 32_768, input: 1.35, output$: 5.4, images: false, reasoning: true }),
};

interface PriceSheet {
  context: number;
  output: number;
  input: number;
  output$: number;
  cached?: number;
  /** Anthropic: when it is not the usual tenth of the input price. */
  cacheRead?: number;
  reasoning?: boolean;
  images?: boolean;
}

function anthropic(sheet: PriceSheet): CatalogueEntry {
  // Anthropic prices cache reads at a tenth of input and 5-minute cache writes at 1.25 times input.
  return {
    family: "anthropic",
    contextWindow: sheet.context,
    maxOutputTokens: sheet.output,
    inputPrice: sheet.input,
    outputPrice: sheet.output$,
    cacheReadPrice: sheet.cacheRead ?? Math.round(sheet.input * 0.1 * 1e6) / 1e6,
    cacheWritePrice: Math.round(sheet.input * 1.25 * 1e6) / 1e6,
    supportsImages: sheet.images ?? true,
    supportsReasoning: sheet.reasoning ?? true,
  };
}

function openai(sheet: PriceSheet): CatalogueEntry {
  return {
    family: "openai",
    contextWindow: sheet.context,
    maxOutputTokens: sheet.output,
    inputPrice: sheet.input,
    outputPrice: sheet.output$,
    cacheReadPrice: sheet.cached ?? sheet.input,
    supportsImages: sheet.images ?? true,
    supportsReasoning: sheet.reasoning ?? false,
  };
}

function bedrock(sheet: PriceSheet): CatalogueEntry {
  return { ...openai(sheet), family: "bedrock" };
}

function gemini(sheet: PriceSheet): CatalogueEntry {
  return { ...openai({ ...sheet, reasoning: sheet.reasoning ?? true }), family: "gemini" };
}

export const defaultModels: Record<Exclude<ProviderFamily, "bedrock"> | "openai-responses" | "azure" | "bedrock" | "vertex" | "mock", string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.4",
  "openai-responses": "gpt-5.4",
  gemini: "gemini-2.5-pro",
  // Azure: the model behind the deployment (the deployment's name defaults to it).
  azure: "gpt-5.4",
  // Cross-region inference profiles: the global one costs no regional premium.
  bedrock: "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
  vertex: "claude-sonnet-4-5@20250929",
  mock: "mock-model",
};

/**
 * Used for models the catalogue does not know, such as local Ollama or LM Studio models: free,
 * modest limits. An unknown Claude model (newer than this catalogue) gets the limits and
 * capabilities every current Claude model has; its price is unknown, so 0 until configured.
 */
export function fallbackModelInfo(id: string): ModelInfo {
  const claude = /^(anthropic\/)?claude-/.test(id);
  return {
    id,
    contextWindow: claude ? 200_000 : 128_000,
    maxOutputTokens: claude ? 64_000 : 8_192,
    inputPrice: 0,
    outputPrice: 0,
    cacheReadPrice: 0,
    cacheWritePrice: 0,
    supportsImages: claude,
    supportsReasoning: claude,
  };
}

/** The catalogue key for `id`: exact, else the longest known id that `id` starts with (dated and suffixed ids). */
function catalogueKey(id: string): string | undefined {
  if (id in catalogue) return id;
  // Bedrock's inference profiles (`us.`, `eu.`, `global.` ...) and vendor prefixes (`anthropic.`), Vertex's `publishers/google/models/`.
  const bare = id
    .replace(/^(anthropic|openai|google|models|publishers\/\w+\/models)\//, "")
    .replace(/^(us|eu|apac|jp|au|ca|us-gov|global)\./, "")
    .replace(/^anthropic\./, "");
  if (bare in catalogue) return bare;
  let best: string | undefined;
  for (const key of Object.keys(catalogue)) {
    const continues = bare.length === key.length || /[-@:.]/.test(bare.charAt(key.length));
    if (bare.startsWith(key) && continues && (best === undefined || key.length > best.length)) best = key;
  }
  return best;
}

/**
 * How an Anthropic model takes a thinking request: models from Opus 4.6 and Sonnet 4.6 on decide
 * their own thinking ("adaptive"; the 5.x models refuse a manual budget), older ones take a token budget.
 */
export function anthropicThinkingMode(id: string): "adaptive" | "budget" {
  return /claude-(\w+)-(5|4-[6-9])/.test(id) ? "adaptive" : "budget";
}

export interface ModelLookupOptions {
  /** Values from the user's configuration, applied over the catalogue (or the fallback). */
  overrides?: Partial<ModelInfo>;
  /** Where Bedrock or Vertex AI serves the model: recent Claude models cost more at a regional endpoint (regional-prices.ts). */
  endpoint?: PricedEndpoint | undefined;
}

/** Model information for `id` at its endpoint's price, with the user's overrides applied; unknown ids get `fallbackModelInfo`. */
export function modelInfo(id: string, options: ModelLookupOptions = {}): ModelInfo {
  const key = catalogueKey(id);
  const entry = key === undefined ? undefined : catalogue[key];
  let base: ModelInfo;
  if (entry === undefined) {
    base = fallbackModelInfo(id);
  } else {
    const { family: _family, ...info } = entry;
    base = { id, ...info };
    if (options.endpoint === "regional" && key !== undefined && hasRegionalPremium(key)) base = atRegionalPrice(base);
  }
  return { ...base, ...options.overrides, id };
}

/** Whether the catalogue knows `id` (directly or by a dated/suffixed form). */
export function isKnownModel(id: string): boolean {
  return catalogueKey(id) !== undefined;
}

/** The catalogue's models a provider can serve (both OpenAI APIs serve the OpenAI models; none for mock). */
export function modelsForProvider(provider: string): string[] {
  if (provider === "openai-responses" || provider === "azure") return knownModelIds("openai");
  if (provider === "bedrock") return [...knownModelIds("anthropic").map((id) => `global.anthropic.${id}`), ...knownModelIds("bedrock").map((id) => `${id}-v1:0`)];
  if (provider === "vertex") return [...knownModelIds("anthropic"), ...knownModelIds("gemini")];
  return provider === "anthropic" || provider === "openai" || provider === "gemini" ? knownModelIds(provider) : [];
}

export function knownModelIds(family?: ProviderFamily): string[] {
  return Object.entries(catalogue)
    .filter(([, entry]) => family === undefined || entry.family === family)
    .map(([id]) => id);
}

export interface TokenCounts {
  /** Input tokens billed at the full price (not read from or written to the cache). */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
}

/** Cost in USD; cache prices default to the input price when the model has none. */
export function costOf(model: ModelInfo, usage: TokenCounts): number {
  const perToken = (pricePerMillion: number): number => pricePerMillion / 1_000_000;
  return (
    usage.inputTokens * perToken(model.inputPrice) +
    usage.outputTokens * perToken(model.outputPrice) +
    (usage.cacheReadTokens ?? 0) * perToken(model.cacheReadPrice ?? model.inputPrice) +
    (usage.cacheWriteTokens ?? 0) * perToken(model.cacheWritePrice ?? model.inputPrice)
  );
}

/** A usage chunk with its cost; cache fields appear only when non-zero. */
export function usageChunk(model: ModelInfo, usage: TokenCounts): UsageChunk {
  const chunk: UsageChunk = {
    type: "usage",
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cost: costOf(model, usage),
  };
  if ((usage.cacheReadTokens ?? 0) > 0) chunk.cacheReadTokens = usage.cacheReadTokens ?? 0;
  if ((usage.cacheWriteTokens ?? 0) > 0) chunk.cacheWriteTokens = usage.cacheWriteTokens ?? 0;
  return chunk;
}
