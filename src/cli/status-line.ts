/**
 * Claude Code's `statusLine` setting in the terminal UI: its command gets
 * Claude Code's status JSON on standard input and the first line it prints is
 * shown at the bottom of the screen. It runs as a hook does (one spawn
 * function, src/hooks/spawn-hook.ts): the scrubbed environment plus the
 * settings' `env`, in the sandbox when it is on; the script of the user's own
 * status line (`~/.claude/statusline.sh`) stays readable there. A project's
 * status line only exists once the folder is trusted (src/config/project-gate.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedSettings, StatusLineSetting } from "../config/index.js";
import { commandFiles } from "../hooks/hook-scripts.js";
import { spawnHook } from "../hooks/spawn-hook.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import { PermissionRules } from "../security/permission-rules.js";
import { launchPolicyFor } from "../session/launch-policy.js";
import { cleanLine } from "../ui/tui/terminal-text.js";

/** What the UI knows at one moment, for the command's input. */
export interface StatusLineState {
  taskId: string | undefined;
  model: string;
  mode: "plan" | "act";
  cost: number;
  tokensUsed: number;
  contextWindow: number;
}

/** Between two runs: Claude Code updates its status line at most every 300 ms; a sandboxed start costs more. */
const minimumIntervalMs = 1000;
const timeoutMs = 5000;

/** `claude-sonnet-4-5` as Claude Code names it for people: `Sonnet 4.5`; other ids as they are. */
export function modelDisplayName(model: string): string {
  const match = /^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d))?(?:-\d{8})?$/.exec(model);
  if (match === null) return model;
  const family = (match[1] ?? "").replace(/^./, (letter) => letter.toUpperCase());
  return `${family} ${match[2] ?? ""}${match[3] === undefined ? "" : `.${match[3]}`}`;
}

function cairnVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}

export class StatusLineCommand {
  private text: string | undefined;
  private running = false;
  private lastInput: string | undefined;
  private lastRunAt = 0;
  private policy: LaunchPolicy | undefined;
  private readonly startedAt = Date.now();

  constructor(
    private readonly options: {
      setting: StatusLineSetting;
      /** Where the setting came from: only the user's own (or the managed file's) script is kept readable in the sandbox. */
      fromProject: boolean;
      settings: () => ResolvedSettings;
      spawn?: typeof spawnHook;
    },
  ) {}

  /** The line to show now (undefined until the command has answered once). */
  get line(): string | undefined {
    return this.text;
  }

  /** Runs the command again when what it would be told changed (cheap to call on every render). */
  update(state: StatusLineState): void {
    const settings = this.options.settings();
    const input = JSON.stringify(this.input(state, settings));
    if (this.running || input === this.lastInput || Date.now() - this.lastRunAt < minimumIntervalMs) return;
    this.lastInput = input;
    this.lastRunAt = Date.now();
    this.running = true;
    void this.run(input, settings).finally(() => {
      this.running = false;
    });
  }

  private async run(input: string, settings: ResolvedSettings): Promise<void> {
    const command = this.options.setting.command;
    const visible = this.options.fromProject || settings.sandbox === "off" ? [] : await commandFiles(command, settings.cwd);
    const result = await (this.options.spawn ?? spawnHook)({
      command,
      cwd: settings.cwd,
      input,
      timeoutMs,
      outputLimit: 4000,
      env: { CLAUDE_PROJECT_DIR: settings.cwd, CAIRN_PROJECT_DIR: settings.cwd },
      launchPolicy: this.launchPolicy(settings),
      ...(visible.length === 0 ? {} : { visible }),
    });
    // Colours are dropped (the line is drawn in cairn's), every other control character is made visible.
    const firstLine = (text: string): string => cleanLine((text.split("\n").find((line) => line.trim() !== "") ?? "").replace(/\u001b\[[0-9;]*m/g, ""));
    if (result.spawnError !== undefined) this.text = `status line: ${firstLine(result.spawnError)}`;
    else if (result.timedOut) this.text = `status line: ${command} took longer than ${timeoutMs / 1000} s`;
    else if (result.exitCode !== 0) this.text = `status line: ${command} failed (exit ${String(result.exitCode)})${result.stderr.trim() === "" ? "" : `: ${firstLine(result.stderr)}`}`;
    else this.text = firstLine(result.stdout);
  }

  private launchPolicy(settings: ResolvedSettings): LaunchPolicy {
    this.policy ??= launchPolicyFor(settings, { rules: new PermissionRules(settings.permissions, settings.cwd) });
    return this.policy;
  }

  /** Claude Code's status line input, plus cairn's own mode and context use. */
  private input(state: StatusLineState, settings: ResolvedSettings): Record<string, unknown> {
    return {
      hook_event_name: "Status",
      session_id: state.taskId ?? "",
      transcript_path: state.taskId === undefined ? "" : join(settings.dataDir, "tasks", state.taskId, "log.jsonl"),
      cwd: settings.cwd,
      model: { id: state.model, display_name: modelDisplayName(state.model) },
      workspace: { current_dir: settings.cwd, project_dir: settings.cwd },
      version: cairnVersion(),
      output_style: { name: "default" },
      // The duration is rounded to the minute, so the command runs again when something changed, not every second.
      cost: { total_cost_usd: state.cost, total_duration_ms: Math.round((Date.now() - this.startedAt) / 60_000) * 60_000, total_lines_added: 0, total_lines_removed: 0 },
      exceeds_200k_tokens: state.tokensUsed > 200_000,
      cairn: { mode: state.mode, tokens_used: state.tokensUsed, context_window: state.contextWindow },
    };
  }
}
