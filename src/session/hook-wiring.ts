/**
 * Everything a session needs for hooks, from resolved settings: discovery,
 * trust, the runner, and the adapters (TaskHooks, the tool wrapper, the host
 * wrapper). Held-back project hooks and configuration problems are reported.
 */
import { join } from "node:path";
import type { LaunchPolicy } from "../security/process-launch.js";
import type { ResolvedSettings } from "../config/index.js";
import type { ContentBlock } from "../llm/types.js";
import type { Host } from "../task/contracts/host.js";
import type { HookStatusMeta } from "../task/contracts/message-meta.js";
import type { TaskHooks } from "../task/contracts/seams.js";
import type { ToolExecutor } from "../task/contracts/tool-executor.js";
import { describeHookReport } from "../hooks/describe-hook.js";
import { discoverHooks } from "../hooks/discover-hooks.js";
import { enabledPlugins, pluginPlaces } from "../plugins/plugin-contributions.js";
import type { DiscoveredHooks } from "../hooks/discover-hooks.js";
import type { HookDefinition } from "../hooks/hook-definition.js";
import { hookLabel } from "../hooks/hook-definition.js";
import { currentFingerprint } from "../hooks/hook-fingerprint.js";
import { HookRunner } from "../hooks/hook-runner.js";
import type { HookReport } from "../hooks/hook-runner.js";
import { checkHookTrust } from "../hooks/hook-trust.js";
import type { TrustedHooks } from "../hooks/hook-trust.js";
import { withNotificationHooks } from "../hooks/notification-host.js";
import { createTaskHooks } from "../hooks/task-hooks.js";
import { withToolHooks } from "../hooks/tool-hooks.js";

export interface HookWiring {
  runner: HookRunner;
  taskHooks: TaskHooks;
  wrapExecutor(executor: ToolExecutor): ToolExecutor;
  wrapHost(host: Host): Host;
  /** UserPromptSubmit for the message a task is resumed with: blocked, or the content plus any context. */
  resumeMessage(message: string | undefined, content: ContentBlock[]): Promise<{ blocked: string } | { content: ContentBlock[] }>;
  /** Lines for the user: configuration problems and held-back project hooks. */
  notices: string[];
}

/** The hooks configured for `settings`, before trust is applied (for `cairn hooks list`). */
export async function discoverSettingsHooks(settings: ResolvedSettings): Promise<DiscoveredHooks> {
  const plugins = await enabledPlugins(pluginPlaces(settings));
  return discoverHooks({
    plugins: plugins.hooks,
    workspace: settings.cwd,
    userConfigDir: settings.userConfigDir,
    settings: settings.hooks,
    settingScope: (event) => {
      const key = `hooks.${event}`;
      const source = settings.sources[key];
      return {
        scope: source === "project" ? "project" : "user",
        file: settings.sourceDetails[key] ?? (source === "project" ? settings.projectConfigPath : settings.userConfigPath),
      };
    },
    // The same files the settings came from (checked there): a project's hooks wait for trust, the user's and the managed file's run.
    claudeSettings: settings.settingsFiles.flatMap((file) =>
      file.claudeHooks === undefined ? [] : [{ file: file.path, scope: file.scope === "project" ? ("project" as const) : ("user" as const), hooks: file.claudeHooks }],
    ),
  });
}

export async function loadTrustedHooks(settings: ResolvedSettings): Promise<{ discovered: DiscoveredHooks; trusted: TrustedHooks }> {
  const discovered = await discoverSettingsHooks(settings);
  const trusted = await checkHookTrust({
    folder: settings.trust.folder,
    folderTrusted: settings.trust.trusted,
    userConfigDir: settings.userConfigDir,
    hooks: discovered.hooks,
  });
  return { discovered, trusted };
}

function runsScripts(hook: HookDefinition): string {
  return hook.scripts === undefined || hook.scripts.length === 0 ? "" : `; it runs ${hook.scripts.join(", ")}`;
}

export function heldHookNotices(trusted: TrustedHooks): string[] {
  return trusted.held.map(({ hook, why }) =>
    why === "changed since trusted"
      ? `The project's ${hook.event} hook ${hookLabel(hook)} (${hook.origin.file}${runsScripts(hook)}) is new or changed since you trusted this folder's hooks; it will not run until you review it and run \`cairn hooks trust\`.`
      : `The project's ${hook.event} hook ${hookLabel(hook)} (${hook.origin.file}) did not run: this folder is not trusted (review it, then run \`cairn hooks trust\`, or run once with --trust).`,
  );
}

/**
 * A project hook runs only as it was trusted: its command and the scripts it
 * runs are checked again before every run, so a script rewritten during the
 * task (by the model, say) is not run.
 */
export function trustedAsIs(workspace: string): (hook: HookDefinition) => Promise<string | undefined> {
  return async (hook) => {
    if (hook.scope !== "project") return undefined;
    if ((await currentFingerprint(hook, workspace)) === hook.fingerprint) return undefined;
    const what = hook.origin.kind === "executable" ? hook.origin.file : hook.scripts?.length ? `a script it runs (${hook.scripts.join(", ")})` : "its command";
    return `${what} changed since it was trusted; review it, then run \`cairn hooks trust\``;
  };
}

export async function createHookWiring(options: {
  settings: ResolvedSettings;
  taskId: string;
  /** Reports each hook run (as a `hook_status` message). */
  say: (text: string, meta: HookStatusMeta) => void;
  stopTask: (reason: string) => void;
  signal: () => AbortSignal | undefined;
  /** Hooks start as every child process does: scrubbed environment, sandbox when on (#14). */
  launchPolicy?: LaunchPolicy;
  /** Hooks given in code (the SDK's callbacks): the program's own, so they need no trust. */
  extraHooks?: readonly HookDefinition[];
}): Promise<HookWiring> {
  const { settings } = options;
  const { discovered, trusted } = await loadTrustedHooks(settings);
  const runner = new HookRunner({
    hooks: [...trusted.runnable, ...(options.extraHooks ?? [])],
    cwd: settings.cwd,
    env: { CLAUDE_PROJECT_DIR: settings.cwd, CAIRN_PROJECT_DIR: settings.cwd },
    ...(options.launchPolicy ? { launchPolicy: options.launchPolicy } : {}),
    mayRun: trustedAsIs(settings.cwd),
    basePayload: () => ({
      session_id: options.taskId,
      transcript_path: join(settings.dataDir, "tasks", options.taskId, "log.jsonl"),
      cwd: settings.cwd,
      workspace: settings.cwd,
      model: settings.model,
      provider: settings.provider,
      permission_mode: settings.yes ? "bypassPermissions" : settings.plan ? "plan" : "default",
      taskId: options.taskId,
    }),
    onReport: (report: HookReport) => {
      const described = describeHookReport(report, settings.cwd);
      options.say(described.text, described.meta);
    },
  });
  const taskHooks = createTaskHooks(runner, { signal: options.signal });
  return {
    runner,
    taskHooks,
    resumeMessage: async (message, content) => {
      if (message === undefined || message.trim() === "") return { content };
      const result = await taskHooks.userPromptSubmit?.({ taskId: options.taskId, prompt: message });
      if (result?.blocked !== undefined) return { blocked: result.blocked };
      return { content: result?.context === undefined ? content : [...content, { type: "text", text: result.context }] };
    },
    wrapExecutor: (executor) =>
      withToolHooks(executor, {
        runner,
        workspace: settings.cwd,
        stopTask: (reason) => {
          options.say(`A hook stopped the task: ${reason}`, { event: "stop", stopReason: reason });
          options.stopTask(reason);
        },
      }),
    wrapHost: (host) => withNotificationHooks(host, runner),
    notices: [...discovered.warnings, ...heldHookNotices(trusted)],
  };
}
