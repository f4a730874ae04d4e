/** execute_command: runs a shell command in the workspace, with its output streamed and capped. */
import type { CommandOutputMeta } from "../../task/contracts/message-meta.js";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { escapeHidden } from "../../security/display-text.js";
import type { CommandResult } from "../command/run-command.js";
import { launchShell, type Launch } from "../../security/process-launch.js";
import { sandboxFailure } from "../../security/escalation.js";
import { ignoredPath, invalidParameter, success, toolError, withApprovalFeedback } from "../responses.js";
import { commandEndText } from "../../task/contracts/tool-ending.js";
import type { ToolDefinition, ToolRuntime } from "../tool-definition.js";
import { refused } from "../approval.js";
import { backgroundHint, backgroundParameterDescription } from "../process/long-running.js";
import { startInBackground } from "../process/start-background.js";
import { offerRefusedHosts, refusedHostsNote } from "../refused-hosts.js";
import { previewCommand } from "../preview/preview-command.js";
import { askAfterPreview } from "../preview/preview-unavailable.js";

/** Words of a command that could be paths (quotes removed, `--flag=value` split). */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"'|;&<>()]+)/g)) {
    const word = match[1] ?? match[2] ?? match[3] ?? "";
    if (word === "") continue;
    words.push(word);
    const equals = word.indexOf("=");
    if (equals > 0 && equals < word.length - 1) words.push(word.slice(equals + 1));
  }
  return words;
}

function namedIgnoredFile(runtime: ToolRuntime, command: string): string | undefined {
  for (const word of commandWords(command)) {
    if (word.startsWith("-") || /^[a-z]+:\/\//i.test(word)) continue;
    const resolved = runtime.guard.resolve(word);
    if (resolved.ignored) return resolved.display;
  }
  return undefined;
}

function describeEnd(result: CommandResult): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  switch (result.end.kind) {
    case "exited":
      return result.end.signal !== null ? `The command was killed by signal ${result.end.signal} after ${seconds} s.` : `The command exited with code ${result.end.exitCode ?? "unknown"} after ${seconds} s.`;
    case "timed_out":
      return `The command did not finish within ${Math.round(result.end.timeoutMs / 1000)} s and was stopped (with everything it started).`;
    case "aborted":
      return `The command was stopped after ${seconds} s because the task was cancelled.`;
    case "failed_to_start":
      return `The command could not be started: ${result.end.message}`;
  }
}

export function formatCommandResult(command: string, result: CommandResult): string {
  const parts = [`Command: ${command}`, describeEnd(result)];
  if (result.totalCharacters === 0) parts.push("It printed no output.");
  else parts.push(`Output:\n${result.output}`);
  if (result.savedPath !== undefined) {
    parts.push(
      `[The output was ${result.totalCharacters} characters; only its beginning and end are shown. The full output is saved at ${result.savedPath}; search it with a command such as grep or tail instead of printing it again.]`,
    );
  }
  return parts.join("\n");
}

export const executeCommandTool: ToolDefinition = {
  name: "execute_command",
  description:
    "Run a shell command in the workspace folder and get its output, exit code and duration. Commands run " +
    "non-interactively: avoid commands that wait for input, and prefer flags that disable pagers and prompts. " +
    "Long outputs are cut to their beginning and end, with the full output saved to a file.",
  parameters: [
    { name: "command", required: true, description: "The command line to run.", usage: "Your command here" },
    {
      name: "requires_approval",
      required: true,
      type: "boolean",
      description: "true for commands with side effects the user should confirm (installing, deleting, network, deploying); false for safe ones (reading, building, testing).",
      usage: "true or false",
    },
    { name: "timeout", required: false, type: "integer", description: "Seconds to wait before stopping the command (at most the default of 600).", usage: "seconds (optional)" },
    { name: "background", required: false, type: "boolean", description: backgroundParameterDescription, usage: "true or false (optional)" },
  ],
  readOnly: false,
  mutates: true,
  partialSayType: "command",
  describePartial(params) {
    // The preview is shown before any approval: hidden characters are escaped here too.
    const command = escapeHidden(params["command"] ?? "").text;
    return { text: command, meta: { tool: "execute_command", command } };
  },
  async execute(params, runtime) {
    const command = params["command"] ?? "";
    const refusal = await runtime.options.readOnlyCommands?.(command);
    if (refusal !== undefined) {
      // Refused as the approval policy refuses (a read-only agent's limit, or a deny rule): the card says so, and it counts as refused.
      const shown = escapeHidden(command).text;
      runtime.context.say("command", `${shown}\n(${refusal})`, { partial: false, key: runtime.callId, meta: { tool: "execute_command", command: shown, approval: "refuse", reason: refusal } });
      return refused(refusal);
    }
    let timeoutMs = runtime.options.commandTimeoutMs;
    const timeoutText = params["timeout"]?.trim();
    if (timeoutText !== undefined && timeoutText !== "") {
      const seconds = Number(timeoutText);
      if (!Number.isFinite(seconds) || seconds <= 0) {
        return invalidParameter({ tool: "execute_command", parameter: "timeout", problem: "it must be a positive number of seconds." });
      }
      timeoutMs = Math.min(timeoutMs, Math.round(seconds * 1000));
    }
    // In the sandbox, ignored files are masked: naming them reveals nothing.
    const ignored = runtime.options.launchPolicy?.sandbox === undefined ? namedIgnoredFile(runtime, command) : undefined;
    if (ignored !== undefined) return ignoredPath(ignored);
    const requiresApproval = (params["requires_approval"] ?? "").trim().toLowerCase() !== "false";
    const background = (params["background"] ?? "").trim().toLowerCase() === "true";
    const decision = await runtime.approvals.approve({
      request: { kind: "command", command, requiresApproval },
      context: runtime.context,
      presentation: { key: runtime.callId, text: command, meta: { tool: "execute_command", command, requiresApproval, cwd: runtime.guard.root, ...(background ? { background: true as const } : {}) } },
    });
    if (!decision.approved && decision.preview !== true) return decision.outcome;
    if (!decision.approved) {
      // "Preview" (#30): run it on a copy-on-write view; the user applies or discards what it did.
      const previewed = await previewCommand({ runtime, command, timeoutMs });
      if (previewed.kind === "done") return previewed.outcome;
      const again = await askAfterPreview({ runtime, command, why: previewed.why });
      if (again !== undefined) return again;
    }
    const unsandboxed = decision.approved && decision.unsandboxed === true;
    const feedback = decision.approved ? decision.feedback : undefined;
    await runtime.context.beforeMutation();
    if (background) return startInBackground({ runtime, command, unsandboxed, feedback });
    const first = await runOnce({ runtime, command, timeoutMs, unsandboxed });
    if ("error" in first) return toolError(first.error);
    let { result, text } = first;
    // The proxy refused hosts (#30): the user may allow them (a Network(domain:…) rule) and run the command again in the sandbox.
    if (first.refusedHosts.length > 0 && (await offerRefusedHosts({ runtime, command, hosts: first.refusedHosts }))) {
      const again = await runOnce({ runtime, command, timeoutMs, unsandboxed: false });
      if ("error" in again) return toolError(again.error);
      ({ result } = again);
      text = `${text}\n[The user allowed ${first.refusedHosts.join(", ")}; the command was run again.]\n${again.text}`;
    }
    // Failed because of the sandbox (a write outside, the network): asked, explicitly, to run it again outside (never by --yes alone).
    const policy = runtime.options.launchPolicy;
    const why = policy?.sandbox !== undefined && !unsandboxed && first.refusedHosts.length === 0 && result.end.kind === "exited" && result.end.exitCode !== 0 ? sandboxFailure(result.output) : undefined;
    if (why !== undefined) {
      const escalation = await runtime.approvals.escalateAfterFailure({ command, why, context: runtime.context, key: runtime.callId });
      if (escalation.rerun) {
        const second = await runOnce({ runtime, command, timeoutMs, unsandboxed: true });
        if ("error" in second) return toolError(second.error);
        ({ result } = second);
        text = `${text}\n[It failed in the sandbox (${why}); it was run again outside the sandbox: ${escalation.reason}.]\n${second.text}`;
      } else text += `\n[It failed in the sandbox: ${why}. It was not run outside the sandbox: ${escalation.reason}.]`;
    }
    // The card shows how the command ended on every surface (a failure's reason is that ending, not the output).
    const card = { end: result.end, durationMs: result.durationMs };
    if (result.end.kind === "failed_to_start" || result.end.kind === "timed_out" || result.end.kind === "aborted") {
      const hint = result.end.kind === "timed_out" ? backgroundHint(command) : undefined;
      return { status: "error", content: hint === undefined ? text : `${text}\n${hint}`, card: { ...card, error: commandEndText(result.end) } };
    }
    return { ...withApprovalFeedback(success(text), feedback), card };
  },
};

/** Runs the command once, in the sandbox or (approved) outside it, and says what it did. */
async function runOnce(options: { runtime: ToolRuntime; command: string; timeoutMs: number; unsandboxed: boolean }): Promise<{ result: CommandResult; text: string; refusedHosts: string[] } | { error: string }> {
  const { runtime, command } = options;
  const policy = runtime.options.launchPolicy;
  let launch: Launch;
  try {
    launch = launchShell({ policy: options.unsandboxed && policy !== undefined ? { ...policy, sandbox: undefined } : policy, shell: runtime.options.shell, command, cwd: runtime.guard.root });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const outputKey = `${runtime.callId}:output${options.unsandboxed ? ":unsandboxed" : ""}`;
  const outputFile = join(runtime.options.outputFolder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}.log`);
  const running = runtime.commands.track(
    runtime.options.operations.runCommand({
      command,
      cwd: runtime.guard.root,
      shell: runtime.options.shell,
      timeoutMs: options.timeoutMs,
      keepBackgroundProcesses: runtime.options.keepBackgroundProcesses,
      signal: runtime.context.signal,
      outputFile,
      launch,
      onOutput: (preview) => runtime.context.say("command_output", preview, { partial: true, key: outputKey }),
    }),
  );
  const result = await running.done;
  const refusedHosts = launch.refusedHosts?.() ?? [];
  const putBack = launch.release();
  const meta: CommandOutputMeta = { tool: "execute_command", end: result.end, durationMs: result.durationMs };
  if (result.savedPath !== undefined) meta.savedPath = result.savedPath;
  if (refusedHosts.length > 0) meta.refusedHosts = refusedHosts;
  if (result.totalCharacters > 0 || refusedHosts.length > 0) runtime.context.say("command_output", result.output, { partial: false, key: outputKey, meta });
  let text = formatCommandResult(command, result);
  if (refusedHosts.length > 0) text += `\n${refusedHostsNote(refusedHosts)}`;
  if (putBack.length > 0) text += `\n[Protected paths are written only with the user's explicit approval (use write_to_file), so cairn undid this: ${putBack.join("; ")}.]`;
  if (launch.hiddenHistory !== undefined && /\bgit\b/.test(command)) {
    text += `\n[git's history is hidden in the sandbox here: ${launch.hiddenHistory.slice(0, 3).join(", ")} ${launch.hiddenHistory.length === 1 ? "is" : "are"} tracked by git but must not be read (ignore file or credentials).]`;
  }
  return { result, text, refusedHosts };
}
