/**
 * The providers of a session: the task's, and one per other model a subagent's
 * agent type names, with the same key and base URL, all behind one shared rate
 * limit (a 429 slows the task and its subagents alike).
 */
import type { ResolvedSettings } from "../config/index.js";
import { requireApiKey } from "../config/index.js";
import { createProvider } from "../llm/create-provider.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { Provider } from "../llm/types.js";
import { SharedRateLimit } from "./shared-rate-limit.js";
import { environmentWithSecrets } from "../security/secret-environment.js";

export interface SessionProviders {
  apiKey: string | undefined;
  provider: Provider;
  providerForModel: (model: string) => Promise<Provider>;
}

export async function createSessionProviders(options: {
  settings: ResolvedSettings;
  scenario?: Scenario;
  /** The fleet's shared rate limits and budgets wrap each provider. */
  wrapProvider?: (provider: Provider) => Provider;
  onNotice: (text: string) => void;
}): Promise<SessionProviders> {
  const { settings } = options;
  const apiKey = requireApiKey(settings);
  const common = {
    provider: settings.provider,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }),
    ...(settings.cloud === undefined ? {} : { cloud: settings.cloud }),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    stall: settings.stallTimeouts,
    // Cloud credentials (AWS_*, AZURE_*) are withdrawn from process.env at start: the providers read them here.
    environment: environmentWithSecrets(),
  };
  const rateLimit = new SharedRateLimit();
  const wrap = (provider: Provider): Provider => rateLimit.wrap(options.wrapProvider ? options.wrapProvider(provider) : provider);
  const created = await createProvider({
    ...common,
    model: settings.model,
    onNotice: options.onNotice,
    ...(settings.models[settings.model] || settings.modelLimits !== undefined ? { modelOverrides: { ...stripUndefined(settings.models[settings.model] ?? {}), ...settings.modelLimits } } : {}),
  });
  return { apiKey, provider: wrap(created), providerForModel: async (model) => wrap(await createProvider({ ...common, model })) };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]-?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof T]-?: Exclude<T[K], undefined> };
}
