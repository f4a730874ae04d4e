import { environmentWithSecrets } from "../security/secret-environment.js";
import type { Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";
import type { ManualOutcome } from "../context/context-manager.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { Message } from "../llm/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { addTaskOptions } from "./run-command.js";
import type { TaskCommandOptions } from "./run-command.js";

/**
 * Compacts (or, with `undo`, uncompacts) a stored task that is not running: the same
 * ContextManager the Task uses, over the task's log, through the configured provider.
 * Everything is appended to the log, so `cairn resume` continues from the result.
 */
export async function compactStoredTask(options: { settings: ResolvedSettings; taskId: string; undo: boolean; scenario?: Scenario; onMessage: (message: UiMessage) => void }): Promise<ManualOutcome> {
  const { settings } = options;
  const { TaskStore } = await import("../store/task-store.js");
  const { ContextManager } = await import("../context/context-manager.js");
  const { workspaceFileReader } = await import("../context/workspace-files.js");
  const { createProvider } = await import("../llm/create-provider.js");
  const { requireApiKey } = await import("../config/index.js");
  const store = new TaskStore({ dataDir: settings.dataDir });
  const taskId = await store.resolveTaskId(options.taskId);
  const apiKey = requireApiKey(settings);
  const provider = await createProvider({
    provider: settings.provider,
    model: settings.model,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }),
    ...(settings.cloud === undefined ? {} : { cloud: settings.cloud }),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    stall: settings.stallTimeouts,
    environment: environmentWithSecrets(),
    modelOverrides: { ...withoutUndefined(settings.models[settings.model] ?? {}), ...settings.modelLimits },
  });
  const { writer, loaded } = await store.open(taskId);
  try {
    const history: Message[] = [...loaded.apiHistory];
    const manager = new ContextManager({
      provider,
      ...(settings.context ? { settings: settings.context } : {}),
      readFile: workspaceFileReader(loaded.meta.workspace),
      ...(loaded.uncompact ? { uncompact: loaded.uncompact } : {}),
    });
    const idPrefix = `compact${Date.now().toString(36)}`;
    let count = 0;
    manager.attach({
      messages: () => history,
      replace: async (update) => {
        const replacement = update(history.slice());
        if (replacement === undefined) return false;
        history.splice(0, history.length, ...replacement.messages);
        writer.appendEntry(replacement.entry);
        return true;
      },
      say: (type, text, meta) => {
        count += 1;
        const message: UiMessage = { type: "say", say: type, id: `${idPrefix}-${count}`, ts: Date.now(), text, partial: false, ...(meta ? { meta } : {}) };
        writer.appendEntry({ kind: "ui", message });
        options.onMessage(message);
      },
      lastContextTokens: () => 0,
      signal: new AbortController().signal,
    });
    return options.undo ? await manager.uncompact() : await manager.compact();
  } finally {
    await writer.close();
  }
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

export function registerCompactCommand(program: Command): void {
  addTaskOptions(
    program
      .command("compact")
      .description("condense a stored task's conversation now (the full history stays in its log)")
      .argument("<taskId>", "the task (see cairn history)")
      .option("--undo", "restore the conversation as it was before the last compaction"),
  ).action(async (taskId: string, flags: TaskCommandOptions & { undo?: boolean }) => {
    const { resolveSettings, ConfigError } = await import("../config/index.js");
    const { loadScenario } = await import("../llm/scripted/scenario.js");
    const { JsonEventWriter } = await import("../ui/headless/json-events.js");
    try {
      const settings = await resolveSettings({ flags, env: environmentWithSecrets(), cwd: process.cwd(), trust: flags.trust === true });
      const scenario = settings.provider === "mock" && flags.scenario ? await loadScenario(flags.scenario) : undefined;
      const json = new JsonEventWriter({ taskId });
      const outcome = await compactStoredTask({
        settings,
        taskId,
        undo: flags.undo === true,
        ...(scenario ? { scenario } : {}),
        onMessage: (message) => {
          // The same lines as `cairn run --json` (docs/json-events.md).
          if (settings.json) {
            const line = json.line(message);
            if (line !== undefined) process.stdout.write(`${line}\n`);
          } else process.stdout.write(`${message.type === "say" && message.say === "warning" ? "warning: " : ""}${message.text}\n`);
        },
      });
      process.exitCode = outcome.done ? 0 : 1;
    } catch (error) {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = error instanceof ConfigError ? 2 : 1;
    }
  });
}
