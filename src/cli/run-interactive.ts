/**
 * `cairn` on a terminal: asks about trusting the folder if its config wants
 * more power, then draws the terminal UI around an InteractiveController
 * until the user quits, and returns the exit status of the last task.
 */
import { enabledPlugins, pluginPlaces } from "../plugins/plugin-contributions.js";
import { createInterface } from "node:readline/promises";
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { ImageContent } from "../llm/types.js";
import { renderTui } from "../ui/tui/render.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { watchAttention } from "../ui/tui/attention-watch.js";
import { AttentionNotifier, focusReporting } from "../ui/tui/notifications.js";
import { exitStatusFor } from "../session/run-summary.js";
import { FileInputHistory } from "./input-history.js";
import { takeOverEarlyFrame } from "../ui/tui/early-frame-handoff.js";
import { InteractiveController } from "./interactive.js";
import { mcpPromptCommands } from "./mcp-completions.js";

/** `/model NAME`: a provider profile of that name if there is one, else a model id for the current provider. */
function switchModelWith(resolveWith: (flags: Partial<CliFlags>) => Promise<ResolvedSettings>): (spec: string) => Promise<ResolvedSettings> {
  return async (spec) => {
    try {
      return await resolveWith({ profile: spec, model: undefined });
    } catch {
      return resolveWith({ model: spec });
    }
  };
}

/** Asks once, on a terminal, whether to trust a folder whose config wants more power. */
async function confirmTrust(settings: ResolvedSettings): Promise<boolean> {
  const { trustQuestion } = await import("../config/trust-question.js");
  const question = trustQuestion(settings.trust);
  if (question === undefined) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    // The question names every wish in words (a base URL by its address) and what was held back, by key.
    const answer = await prompt.question(`${question}\n(held back until then: ${settings.trust.gated.join(", ")}) [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/** Notifications when the UI needs the user (docs/tui.md): the terminal is asked to report its focus while they are on. */
function callUserBack(controller: InteractiveController, host: TuiHost, settings: ResolvedSettings): () => void {
  const notifier = new AttentionNotifier({ ...settings.notifications, env: process.env, write: (text) => process.stdout.write(text) });
  if (!notifier.enabled) return () => undefined;
  controller.attention = notifier;
  process.stdout.write(focusReporting.on);
  const stop = watchAttention({ notifier, subscribe: host.subscribe, snapshot: host.getSnapshot, busy: () => controller.isRunning });
  return () => {
    stop();
    notifier.settle();
    process.stdout.write(focusReporting.off);
  };
}

export async function runInteractive(options: {
  settings: ResolvedSettings;
  initialTask?: string;
  scenario?: Scenario;
  exitWhenDone?: boolean;
  /** Re-resolves settings after the folder was trusted. */
  reresolve?: () => Promise<ResolvedSettings>;
  /** Resolves settings again with some flags changed (`/model`). */
  resolveWith?: (flags: Partial<CliFlags>) => Promise<ResolvedSettings>;
  /** `--image` files, sent with the first message. */
  images?: ImageContent[];
  /** `cairn resume ID` on a terminal: continue that task (with `initialTask` as the message, if any). */
  resumeTaskId?: string;
}): Promise<number> {
  let settings = options.settings;
  if (options.reresolve && (await confirmTrust(settings))) {
    const { trustFolder } = await import("../config/index.js");
    await trustFolder(settings.trust.folder, settings.userConfigDir);
    settings = await options.reresolve();
  }
  const host = new TuiHost();
  const ui: { instance?: { unmount(): void }; exitAsked?: boolean } = {};
  const controller = new InteractiveController({
    settings,
    host,
    exitWhenDone: options.exitWhenDone ?? false,
    ...(options.scenario ? { scenario: options.scenario } : {}),
    ...(options.resumeTaskId ? { resumeTaskId: options.resumeTaskId } : {}),
    ...(options.resolveWith ? { switchModel: switchModelWith(options.resolveWith) } : {}),
    // The last messages may be waiting for the next frame: draw them, let React render, then go.
    onExit: () => {
      host.flush();
      ui.exitAsked = true;
      setTimeout(() => ui.instance?.unmount(), 100);
    },
  });
  controller.pendingImages.push(...(options.images ?? []));
  // `cairn "task"`: the task starts now, and its request is on its way while the UI is set up
  // (the menus' commands, Ink and its first frame); its messages wait in the host until it draws.
  const initialTask = options.initialTask?.trim();
  if (initialTask) controller.submit(initialTask);
  // Custom commands, workflows, /newrule and /rules join the menu and /help (#15).
  const { extensionSlashCommands } = await import("./extension-slash-commands.js");
  const { registerSlashCommand, slashCommands } = await import("../ui/tui/slash-commands.js");
  for (const command of await extensionSlashCommands({
    workspace: settings.cwd,
    userConfigDir: settings.userConfigDir,
    claudeUserDir: settings.claudeUserDir,
    currentRules: () => controller.currentSession?.rules,
    plugins: (await enabledPlugins(pluginPlaces(settings))).commands,
  })) {
    if (slashCommands.get(command.name) === undefined) registerSlashCommand(command);
  }
  // The MCP servers' prompts, once a task started the servers (docs/mcp.md).
  slashCommands.addSource(mcpPromptCommands(() => controller.mcp.references()));
  const history = new FileInputHistory({ dataDir: settings.dataDir, workspace: settings.cwd });
  // The launcher's input box (src/launch/early-frame.ts) becomes the UI's first frame; nothing waits in between.
  const earlyFrameErase = takeOverEarlyFrame();
  const stopAttention = callUserBack(controller, host, settings);
  const instance = renderTui({
    controller,
    host,
    history,
    ...(earlyFrameErase === undefined ? {} : { earlyFrameErase }),
  });
  ui.instance = instance;
  // A task that ended (exitWhenDone) before the UI was drawn.
  if (ui.exitAsked === true) setTimeout(() => instance.unmount(), 100);
  if (options.resumeTaskId && !initialTask) controller.resumeNow();
  await instance.waitUntilExit();
  stopAttention();
  await controller.close();
  const result = controller.result;
  if (result?.status === "aborted" && controller.taskId) {
    process.stdout.write(`task interrupted; resume it with: cairn resume ${controller.taskId}\n`);
  }
  return result ? exitStatusFor(result) : 0;
}
