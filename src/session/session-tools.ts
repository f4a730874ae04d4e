/**
 * The session's tool executor and what its tools run beside the task: auto
 * mode's judge (what would be asked), the background processes (#31) and the
 * language servers (#32). What starts here is stopped again through `started`
 * if the session cannot be built.
 */
import { join } from "node:path";
import type { ResolvedSettings } from "../config/index.js";
import type { Message, Provider } from "../llm/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import type { McpPort } from "../tools/mcp-port.js";
import { processReporter, startedBackgroundProcesses } from "../tools/process/environment-report.js";
import { ProcessTable } from "../tools/process/process-table.js";
import { createAutoModeJudge } from "./auto-mode-wiring.js";
import { startLanguageServers } from "./lsp-wiring.js";
import type { SessionSecurity } from "./security-wiring.js";
import type { SessionOptions } from "./session.js";
import type { SubagentFactory } from "./subagents/subagent-factory.js";

export async function createSessionTools(parts: {
  options: SessionOptions;
  settings: ResolvedSettings;
  provider: Provider;
  taskId: string;
  security: SessionSecurity;
  started: Array<() => Promise<void>>;
  subagents: SubagentFactory;
  mcpPort: McpPort | undefined;
  providerForModel: (model: string) => Promise<Provider>;
  conversation: () => readonly Message[];
  resumedMessages: UiMessage[];
}) {
  const { options, settings, provider, taskId, security, started } = parts;
  const judge = await createAutoModeJudge({
    settings,
    provider,
    providerForModel: parts.providerForModel,
    security,
    headless: options.headless === true,
    conversation: parts.conversation,
  });
  if (judge !== undefined) parts.subagents.useJudge(judge);
  const processes = options.processes ?? new ProcessTable();
  if (options.processes === undefined) started.push(async () => void (await processes.dispose()));
  const reportProcesses = processReporter({ table: processes, resumedWithProcesses: startedBackgroundProcesses(parts.resumedMessages) && processes.running(taskId).length === 0 });
  const languages = startLanguageServers(settings, security.launchPolicy);
  started.push(() => languages.shutdown());
  parts.subagents.useLanguages(languages);
  const baseExecutor = createToolExecutor({
    ...(judge ? { judge } : {}),
    processes: { table: processes, taskId, logFolder: join(settings.dataDir, "tasks", taskId, "processes") },
    workspace: settings.cwd,
    dataDir: settings.dataDir,
    outputFolder: security.outputFolder,
    sandboxUnavailable: settings.sandboxUnavailable,
    approval: settings.autoApprove,
    yes: settings.yes,
    allowOutsideWrites: settings.allowOutsideWrites,
    protocol: settings.toolProtocol,
    ...(parts.mcpPort ? { mcp: parts.mcpPort } : {}),
    languages,
    parallelTools: settings.parallelTools,
    rules: security.rules,
    allowOutsideReads: settings.allowOutsideReads,
    launchPolicy: security.launchPolicy,
    userConfigDir: settings.userConfigDir,
    supportsImages: provider.model.supportsImages,
    keepBackgroundProcesses: settings.keepBackgroundProcesses,
    ...(options.operations ? { operations: options.operations } : {}),
    childTasks: parts.subagents,
    ...(options.headless === true ? { headless: true } : {}),
  });
  return { judge, processes, reportProcesses, languages, baseExecutor };
}
