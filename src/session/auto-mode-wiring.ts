/**
 * Auto mode for one session (issue 30): the judge on its own model (a small
 * one of the provider in use unless configured), behind the same redaction and
 * rate limits as every other request, seeing the task and its conversation.
 */
import type { ResolvedSettings } from "../config/index.js";
import type { Message, Provider } from "../llm/types.js";
import type { ActionJudge } from "../tools/auto-mode/judge-contract.js";
import { judgeModelFor, ModelJudge } from "../tools/auto-mode/model-judge.js";
import type { SessionSecurity } from "./security-wiring.js";

export async function createAutoModeJudge(options: {
  settings: ResolvedSettings;
  provider: Provider;
  providerForModel: (model: string) => Promise<Provider>;
  security: SessionSecurity;
  headless: boolean;
  conversation: () => readonly Message[];
}): Promise<ActionJudge | undefined> {
  const { settings } = options;
  const autoMode = settings.autoMode;
  // --yes approves everything the judge could have: there is nothing left to judge.
  if (autoMode === undefined || !autoMode.enabled || settings.yes) return undefined;
  const model = judgeModelFor({ provider: settings.provider, taskModel: options.provider.model.id, configured: autoMode.model });
  const provider = model === options.provider.model.id ? options.provider : await options.providerForModel(model);
  return new ModelJudge({
    provider: options.security.wrapProvider(provider),
    conversation: () => {
      const history = options.conversation();
      return { task: firstUserText(history), history };
    },
    headless: options.headless,
    maxTokens: autoMode.maxTokens,
    maxCost: autoMode.maxCost,
    timeoutMs: autoMode.timeoutMs,
  });
}

/** The task as the user gave it: the text of the first user message. */
function firstUserText(history: readonly Message[]): string {
  const first = history.find((message) => message.role === "user");
  return (first?.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
