/**
 * "Preview" at a command's approval (#30): the command runs in the sandbox
 * against a copy-on-write view of the workspace (overlay-launch.ts), without
 * the network; the user sees what it would create, change and delete, as a
 * diff, and applies it (the previewed changes are copied into the workspace,
 * so what lands is exactly what was shown; running the command again could
 * do something else) or discards it (nothing changed). A command that gets
 * the network cannot be previewed (what it sends cannot be taken back); one
 * that does not finish within the preview's time limit cannot either; both
 * say why, and the user is asked again whether to run it for real.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { escapeHidden } from "../../security/display-text.js";
import { launchShell, type Launch } from "../../security/process-launch.js";
import { protectedReason } from "../../security/protected-paths.js";
import type { ToolMetaOf } from "../../task/contracts/message-meta.js";
import type { ToolOutcome } from "../../task/contracts/tool-executor.js";
import { defaultUserConfigDir } from "../../config/paths.js";
import { denied, success } from "../responses.js";
import type { ToolRuntime } from "../tool-definition.js";
import { formatCommandResult } from "../builtin/execute-command.js";
import { copyFailedStatus, overlayLaunch, overlayUnavailableStatus, previewFolders, unmountablePath, type PreviewFolders, type ViewMode } from "./overlay-launch.js";
import type { CommandResult } from "../command/run-command.js";
import { applyPreview, describePreview, readPreview } from "./preview-changes.js";

/** A preview stops after this long: a long-running command (a server, a watcher) cannot be previewed. */
export const previewTimeoutMs = 120_000;

export type PreviewOutcome = { kind: "done"; outcome: ToolOutcome } | { kind: "not-previewable"; why: string };

/** Why this command cannot be previewed before running it, or undefined. */
function notPreviewable(runtime: ToolRuntime, command: string): string | undefined {
  const sandbox = runtime.options.launchPolicy?.sandbox;
  if (sandbox === undefined) return "a preview runs in the sandbox, which is off";
  if (sandbox.mode !== "workspace-write") return "the sandbox keeps the workspace read-only: the command could change nothing";
  if (sandbox.commandNetwork?.(command).network ?? sandbox.network) return "it gets the network, and what it sends or fetches cannot be taken back by discarding a preview";
  return unmountablePath(runtime.guard.root);
}

/** Set once the kernel refused an overlay: later previews of this process copy the workspace at once. */
let overlayRefused = false;

type ViewRun = { result: CommandResult; folders: PreviewFolders } | { outcome: PreviewOutcome } | { overlayRefused: true };

/** Runs the command once in the sandbox over a view of the workspace; the folders are removed unless it ran. */
async function runInView(options: { runtime: ToolRuntime; command: string; timeoutMs: number; mode: ViewMode }): Promise<ViewRun> {
  const { runtime, command, timeoutMs } = options;
  const root = runtime.guard.root;
  let launch: Launch;
  try {
    launch = launchShell({ policy: runtime.options.launchPolicy, shell: runtime.options.shell, command, cwd: root, network: false });
  } catch (error) {
    return { outcome: { kind: "not-previewable", why: error instanceof Error ? error.message : String(error) } };
  }
  const folders = previewFolders();
  const running = runtime.commands.track(
    runtime.options.operations.runCommand({
      command,
      cwd: root,
      shell: runtime.options.shell,
      timeoutMs,
      keepBackgroundProcesses: false,
      signal: runtime.context.signal,
      outputFile: join(runtime.options.outputFolder, `preview-${randomBytes(4).toString("hex")}.log`),
      launch: overlayLaunch(launch, root, folders, options.mode),
      onOutput: (preview) => runtime.context.say("command_output", preview, { partial: true, key: `${runtime.callId}:preview` }),
    }),
  );
  const result = await running.done;
  launch.release();
  const failed = (outcome: PreviewOutcome | undefined): ViewRun => {
    rmSync(folders.root, { recursive: true, force: true });
    return outcome === undefined ? { overlayRefused: true } : { outcome };
  };
  if (result.end.kind === "timed_out") return failed({ kind: "not-previewable", why: `it did not finish within ${Math.round(timeoutMs / 1000)} s in the preview (a long-running command)` });
  if (result.end.kind === "aborted") return failed({ kind: "done", outcome: denied("The task was stopped during the preview.") });
  if (result.end.kind === "failed_to_start") return failed({ kind: "not-previewable", why: `the preview could not start: ${result.end.message}` });
  if ((result.end.exitCode === overlayUnavailableStatus || result.end.exitCode === copyFailedStatus) && /cairn: the preview (needs overlayfs|could not copy)/.test(result.output)) return failed(undefined);
  return { result, folders };
}

export async function previewCommand(options: { runtime: ToolRuntime; command: string; timeoutMs: number }): Promise<PreviewOutcome> {
  const { runtime, command } = options;
  const why = notPreviewable(runtime, command);
  if (why !== undefined) return { kind: "not-previewable", why };
  const root = runtime.guard.root;
  const timeoutMs = Math.min(options.timeoutMs, previewTimeoutMs);
  let ran = await runInView({ runtime, command, timeoutMs, mode: overlayRefused ? "copy" : "overlay" });
  if ("overlayRefused" in ran) {
    // This kernel does not allow overlayfs in a user namespace (before Linux 5.11): a copy of the workspace, from now on.
    overlayRefused = true;
    ran = await runInView({ runtime, command, timeoutMs, mode: "copy" });
  }
  if ("overlayRefused" in ran) return { kind: "not-previewable", why: "the workspace could not be copied for the preview" };
  if ("outcome" in ran) return ran.outcome;
  const { result, folders } = ran;
  try {
    runtime.context.say("command_output", result.output, { partial: false, key: `${runtime.callId}:preview`, meta: { tool: "execute_command", end: result.end, durationMs: result.durationMs } });
    const changes = readPreview(root, folders);
    const summary = describePreview(root, folders, changes);
    const shown = escapeHidden(command).text;
    const meta = {
      tool: "execute_command",
      command: shown,
      approval: "ask",
      explicitApproval: true,
      reason: "this is its preview: apply these changes to the workspace? (nothing has changed yet)",
    } satisfies ToolMetaOf<"execute_command">;
    // The summary is a message of its own: every surface shows it (a command's card shows the command, not the ask's text).
    runtime.context.say("info", `Preview of ${shown} (it ran in the sandbox on a copy-on-write view of the workspace, without the network; nothing has changed yet):\n${summary}`);
    const answer = await runtime.context.ask("command", `${shown}\n(Apply these changes to the workspace? No discards them.)`, { meta });
    const output = formatCommandResult(command, result);
    if (answer.response !== "yes") {
      return {
        kind: "done",
        outcome: denied(`${answer.text ?? ""}\n[The user previewed the command (it ran on a copy-on-write view of the workspace) and discarded its changes: nothing changed in the workspace.]\n${output}`.trim()),
      };
    }
    await runtime.context.beforeMutation();
    const applied = applyPreview({ workspace: root, folders, result: changes, skip: (path) => protectedReason(join(root, path), { workspace: root, userConfigDir: defaultUserConfigDir() }) });
    if (applied.problem !== undefined) {
      runtime.context.say("warning", `The preview's changes were not applied: ${applied.problem}. Nothing was written.`);
      return { kind: "done", outcome: denied(`[The previewed changes were not applied: ${applied.problem}. Nothing was written; run the command again if it is still wanted.]`) };
    }
    const counted = changes.changes.filter((change) => change.kind !== "folder").length;
    const skipped = applied.skipped.length === 0 ? "" : ` Protected paths were not written: ${applied.skipped.join(", ")}.`;
    runtime.context.say("info", `Applied the preview of ${shown}: ${counted} file${counted === 1 ? "" : "s"} written or removed.${skipped}`);
    return { kind: "done", outcome: success(`${output}\n[The command ran in a preview (a copy-on-write view of the workspace) and the user applied its changes:\n${summary}${skipped}]`) };
  } finally {
    rmSync(folders.root, { recursive: true, force: true });
  }
}
