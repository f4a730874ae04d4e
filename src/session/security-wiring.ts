/**
 * The security layer for one session (#14): the rules in force, how child
 * processes start (scrubbed environment, sandbox), the budget, and the
 * redaction of known secret values from what the task writes and sends.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { ResolvedSettings } from "../config/index.js";
import { ConfigError } from "../config/index.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { Provider } from "../llm/types.js";
import { TaskBudget, countSoFar, spentByRequests } from "../security/budget.js";
import { hasSpendCap, SpendCap, type SpendLedger } from "../security/spend-cap.js";
import { FileSpendLedger } from "../store/spend-ledger.js";
import { secretValues } from "../security/child-environment.js";
import { environmentWithSecrets } from "../security/secret-environment.js";
import { PermissionRules } from "../security/permission-rules.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import { launchProcess } from "../security/process-launch.js";
import { SecretRedactor } from "../security/redaction.js";
import { checkBubblewrap } from "../security/sandbox.js";
import type { Host } from "../task/contracts/host.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskLog } from "../task/contracts/seams.js";
import type { TaskStore } from "../store/task-store.js";
import type { UsageTotals } from "../security/budget.js";
import { launchPolicyFor } from "./launch-policy.js";

export interface SessionSecurity {
  rules: PermissionRules;
  launchPolicy: LaunchPolicy;
  /** This session's saved command outputs: the one part of the data folder the sandbox shows (read-only). */
  outputFolder: string;
  /** Frees what sandboxed servers held for the session (their placeholders). */
  release(): void;
  budget: TaskBudget | undefined;
  /** Spend caps across tasks (#36): the task and its subagents check and charge the same ledger. */
  spendCap: SpendCap | undefined;
  redactor: SecretRedactor;
  wrapProvider(provider: Provider): Provider;
  wrapHost(host: Host): Host;
  wrapLog<T extends TaskLog>(log: T): T;
  /** Stdio MCP servers started under the sandbox when it is on. */
  sandboxMcpServers(servers: McpServerConfig[]): McpServerConfig[];
}

/** What a resumed task already spent, for its budget: it counts the whole task (#14). */
export interface BudgetSoFar {
  requestsSoFar: number;
  toolCallsSoFar: number;
  /** Time its earlier runs took. */
  elapsedMsSoFar: number;
  /** What the subagents of its earlier runs spent (not in the parent's own counter). */
  usageSoFar: UsageTotals;
}

/**
 * From a resumed task's messages and its log's run time: its requests, summary
 * requests and tool calls, and those of every subagent its earlier runs started
 * (each child's own log, linked from the parent's messages by `childTaskId`).
 */
export async function budgetSoFar(options: {
  store: TaskStore;
  messages: ReadonlyArray<UiMessage>;
  activeMs: number | undefined;
  /** The totals the task's own counter starts from (its log's last status entry). */
  recorded: UsageTotals;
}): Promise<BudgetSoFar> {
  const own = countSoFar(options.messages);
  // A run that died (kill -9, a fleet worker lost) wrote no status entry: its requests' usage is only in their messages.
  const spent = spentByRequests(options.messages);
  const usageSoFar = {
    tokensIn: Math.max(0, spent.tokensIn - options.recorded.tokensIn),
    tokensOut: Math.max(0, spent.tokensOut - options.recorded.tokensOut),
    cost: Math.max(0, spent.cost - options.recorded.cost),
  };
  const result: BudgetSoFar = { ...own, elapsedMsSoFar: options.activeMs ?? 0, usageSoFar };
  const children = new Set<string>();
  for (const message of options.messages) {
    const child = message.meta?.["childTaskId"];
    if (typeof child === "string") children.add(child);
  }
  for (const taskId of children) {
    const loaded = await options.store.load(taskId).catch(() => undefined);
    if (loaded === undefined) continue;
    const spent = countSoFar(loaded.uiMessages);
    result.requestsSoFar += spent.requestsSoFar;
    result.toolCallsSoFar += spent.toolCallsSoFar;
    // Its totals, or what its requests' messages say when it died before writing them.
    const requests = spentByRequests(loaded.uiMessages);
    result.usageSoFar.tokensIn += Math.max(loaded.tokensIn, requests.tokensIn);
    result.usageSoFar.tokensOut += Math.max(loaded.tokensOut, requests.tokensOut);
    result.usageSoFar.cost += Math.max(loaded.cost, requests.cost);
  }
  return result;
}

export function createSessionSecurity(options: {
  settings: ResolvedSettings;
  apiKey: string | undefined;
  resumedMessages?: ReadonlyArray<UiMessage>;
  /** What the task spent before this run (`budgetSoFar`); else counted from `resumedMessages`. */
  resumedBudget?: BudgetSoFar;
  /** The environment the session's processes start from (an SDK caller's `env`); default: this process's. */
  baseEnvironment?: NodeJS.ProcessEnv;
  /** Where spend caps add up (the fleet's Redis); default: the data folder's ledger. */
  spendLedger?: SpendLedger;
  taskId?: string;
}): SessionSecurity {
  const { settings } = options;
  if (settings.sandbox !== "off") {
    const usable = checkBubblewrap();
    // Asked for and not available: a clear error, never a silent fallback.
    if (!usable.ok) throw new ConfigError(`--sandbox ${settings.sandbox}: ${usable.message}.`);
  }
  const rules = new PermissionRules(settings.permissions, settings.cwd);
  const outputFolder = join(settings.dataDir, "outputs", `${new Date().toISOString().slice(0, 10)}-${randomBytes(6).toString("hex")}`);
  const launchPolicy = launchPolicyFor(settings, { rules, readableInDataDir: outputFolder, baseEnvironment: options.baseEnvironment });
  // Secrets of either environment never reach the model or the log.
  const redactor = new SecretRedactor([options.apiKey, ...secretValues(environmentWithSecrets()), ...(options.baseEnvironment === undefined ? [] : secretValues(options.baseEnvironment))]);
  const hasLimits = Object.values(settings.budget).some((limit) => limit !== undefined);
  const budget = hasLimits ? new TaskBudget(settings.budget, options.resumedBudget ?? countSoFar(options.resumedMessages ?? [])) : undefined;
  const releases: Array<() => void> = [];
  const spendCap = hasSpendCap(settings.spendCap) ? new SpendCap(settings.spendCap, options.spendLedger ?? new FileSpendLedger(settings.dataDir, options.taskId)) : undefined;
  return {
    rules,
    launchPolicy,
    outputFolder,
    release: () => {
      for (const release of releases.splice(0)) release();
    },
    budget,
    spendCap,
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
            const launch = launchProcess({
              policy: launchPolicy,
              program: server.transport.command,
              args: server.transport.args,
              cwd,
              longLived: true,
              ...(server.visible === undefined ? {} : { visible: server.visible }),
            });
            releases.push(() => void launch.release());
            return { ...server, transport: { ...server.transport, command: launch.file, args: launch.args } };
          }),
  };
}
