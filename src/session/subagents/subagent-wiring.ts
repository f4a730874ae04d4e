/** Subagents in a session (issue #17): the agent types in force and the child-task factory. */
import { enabledPlugins, pluginPlaces } from "../../plugins/plugin-contributions.js";
import type { ResolvedSettings } from "../../config/index.js";
import type { Provider } from "../../llm/types.js";
import { TaskStore } from "../../store/task-store.js";
import type { Host } from "../../task/contracts/host.js";
import type { Task } from "../../task/task.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import type { WorkspaceOperations } from "../../tools/operations.js";
import { agentTypesSection, loadAgentTypes } from "./agent-types.js";
import type { SessionSecurity } from "../security-wiring.js";
import { SubagentFactory } from "./subagent-factory.js";

export async function createSubagents(options: {
  settings: ResolvedSettings;
  provider: Provider;
  providerForModel: (model: string) => Promise<Provider>;
  security: SessionSecurity;
  host: Host;
  parentTaskId: string;
  current: { task?: Task };
  notice: (text: string) => void;
  operations?: WorkspaceOperations;
  resumedMessages?: ReadonlyArray<UiMessage>;
  checkpoints?: boolean;
}): Promise<{ factory: SubagentFactory; promptSections: () => string[] }> {
  const { settings, current } = options;
  const plugins = await enabledPlugins(pluginPlaces(settings));
  const { types, warnings } = await loadAgentTypes({ workspace: settings.cwd, userConfigDir: settings.userConfigDir, claudeUserDir: settings.claudeUserDir, plugins: plugins.agents });
  for (const warning of warnings) options.notice(warning);
  const factory = new SubagentFactory({
    settings,
    provider: options.provider,
    providerForModel: options.providerForModel,
    security: options.security,
    host: options.host,
    store: new TaskStore({ dataDir: settings.dataDir }),
    parentTaskId: options.parentTaskId,
    parentUsage: () => current.task?.usage.totals() ?? { tokensIn: 0, tokensOut: 0, cost: 0 },
    parentSay: (text, meta) => current.task?.say("info", text, { meta }),
    agentTypes: types,
    ...(options.operations ? { operations: options.operations } : {}),
    ...(options.resumedMessages ? { resumedMessages: options.resumedMessages } : {}),
    ...(options.checkpoints === false ? { checkpoints: false } : {}),
  });
  const section = agentTypesSection(types);
  return { factory, promptSections: () => [section] };
}
