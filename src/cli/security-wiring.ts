/**
 * The security layer for one session (#14): the rules in force, how child
 * processes start (scrubbed environment, sandbox), the budget, and the
 * redaction of known secret values from what the task writes and sends.
 */
import type { ResolvedSettings } from "../config/index.js";
import { ConfigError } from "../config/index.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { Provider } from "../llm/types.js";
import { TaskBudget, countSoFar } from "../security/budget.js";
import { secretValues } from "../security/child-environment.js";
import { PermissionRules } from "../security/permission-rules.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import { launchProcess } from "../security/process-launch.js";
import { SecretRedactor } from "../security/redaction.js";
import { checkBubblewrap } from "../security/sandbox.js";
import type { Host } from "../task/contracts/host.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskLog } from "../task/contracts/seams.js";
import { createLaunchPolicy } from "../tools/sandbox-policy.js";

export interface SessionSecurity {
  rules: PermissionRules;
  launchPolicy: LaunchPolicy;
  budget: TaskBudget | undefined;
  redactor: SecretRedactor;
  wrapProvider(provider: Provider): Provider;
  wrapHost(host: Host): Host;
  wrapLog<T extends TaskLog>(log: T): T;
  /** Stdio MCP servers started under the sandbox when it is on. */
  sandboxMcpServers(servers: McpServerConfig[]): McpServerConfig[];
}

export function createSessionSecurity(options: {
  settings: ResolvedSettings;
  apiKey: string | undefined;
  resumedMessages?: ReadonlyArray<UiMessage>;
}): SessionSecurity {
  const { settings } = options;
  if (settings.sandbox !== "off") {
    const usable = checkBubblewrap();
    // Asked for and not available: a clear error, never a silent fallback.
    if (!usable.ok) throw new ConfigError(`--sandbox ${settings.sandbox}: ${usable.message}.`);
  }
  const rules = new PermissionRules(settings.permissions, settings.cwd);
  const launchPolicy = createLaunchPolicy({
    rules,
    workspace: settings.cwd,
    sandbox: settings.sandbox,
    network: settings.sandboxNetwork,
    allowEnv: settings.allowEnv,
    userConfigDir: settings.userConfigDir,
  });
  const redactor = new SecretRedactor([options.apiKey, ...secretValues(process.env)]);
  const hasLimits = Object.values(settings.budget).some((limit) => limit !== undefined);
  const budget = hasLimits ? new TaskBudget(settings.budget, countSoFar(options.resumedMessages ?? [])) : undefined;
  return {
    rules,
    launchPolicy,
    budget,
    redactor,
    wrapProvider: (provider) =>
      redactor.active
        ? {
            name: provider.name,
            model: provider.model,
            ...(provider.baseUrl === undefined ? {} : { baseUrl: provider.baseUrl }),
            createMessage: (request) => provider.createMessage({ ...request, systemPrompt: redactor.text(request.systemPrompt), messages: redactor.deep(request.messages) }),
          }
        : provider,
    wrapHost: (host) =>
      redactor.active
        ? {
            onMessage: (message) => host.onMessage(redactor.deep(message)),
            answerAsk: (message, signal) => host.answerAsk(redactor.deep(message), signal),
          }
        : host,
    wrapLog: (log) => {
      if (!redactor.active) return log;
      const append = log.append.bind(log);
      log.append = (entry) => append(redactor.deep(entry));
      return log;
    },
    sandboxMcpServers: (servers) =>
      launchPolicy.sandbox === undefined
        ? servers
        : servers.map((server) => {
            if (server.transport.type !== "stdio") return server;
            const cwd = server.transport.cwd ?? settings.cwd;
            const launch = launchProcess({ policy: launchPolicy, program: server.transport.command, args: server.transport.args, cwd });
            return { ...server, transport: { ...server.transport, command: launch.file, args: launch.args } };
          }),
  };
}
