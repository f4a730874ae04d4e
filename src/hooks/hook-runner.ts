/**
 * Runs the hooks of one event: every matching hook at once, each with the
 * JSON payload on stdin (a callback hook with it parsed), then one combined answer (any block blocks, contexts
 * are joined). Aborting the task cancels the hooks still running.
 */
import type { HookEvent } from "./events.js";
import type { HookDefinition, HookDialect } from "./hook-definition.js";
import { hookLabel } from "./hook-definition.js";
import { readHookOutput } from "./hook-output.js";
import type { HookDecision, HookVerdict } from "./hook-output.js";
import { spawnHook } from "./spawn-hook.js";
import { commandFiles } from "./hook-scripts.js";
import { clineHookInput } from "./cline-input.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import type { HookProcessResult } from "./spawn-hook.js";
import { matcherMatches } from "./tool-names.js";
import { runHookCallback } from "./run-callback.js";

export interface HookReport {
  event: HookEvent;
  hook: HookDefinition;
  result: HookProcessResult;
  verdict: HookVerdict;
}

export interface CombinedHookResult {
  /** How many hooks ran. */
  ran: number;
  /** The strongest decision: block over ask over allow. */
  decision?: HookDecision;
  /** Reasons of the hooks that blocked (or the answering one), joined. */
  reason?: string;
  contexts: string[];
  updatedInput?: Record<string, unknown>;
  /** The dialect of the hook whose `updatedInput` won: the shape it is in. */
  updatedInputDialect?: HookDialect;
  stopReason?: string;
  /** Hooks that never ran (`notStarted`), each as "label: problem". */
  notStarted?: string[];
}

/** A payload for every hook, or one per dialect (tool events show tools differently to each). */
export type HookPayload = Record<string, unknown> | ((dialect: HookDialect) => Record<string, unknown>);
/** Matcher subjects for every hook, or per dialect. */
export type HookSubjects = readonly string[] | ((dialect: HookDialect) => readonly string[]);

/** Events whose plain (non-JSON) output is context, as in Claude Code (SessionStart, UserPromptSubmit). */
export const plainOutputIsContext: ReadonlySet<HookEvent> = new Set(["TaskStart", "TaskResume", "UserPromptSubmit"]);

export interface HookRunnerOptions {
  hooks: readonly HookDefinition[];
  cwd: string;
  /** Fields every payload carries (`session_id`, `cwd`, model, workspace). */
  basePayload: () => Record<string, unknown>;
  onReport?: (report: HookReport) => void;
  /** Variables for hook processes (e.g. `CLAUDE_PROJECT_DIR`). */
  env?: Record<string, string>;
  /** Scrubbed environment and sandbox for hook processes (src/security). */
  launchPolicy?: LaunchPolicy;
  spawn?: typeof spawnHook;
  /** Asked before each run: why the hook must not run now (its script changed since it was trusted), if so. */
  mayRun?: (hook: HookDefinition) => Promise<string | undefined>;
}

const heldResult = { exitCode: null, stdout: "", stderr: "", timedOut: false, cancelled: false, truncated: false, durationMs: 0 } as const;

/** The hooks of `event` whose matcher accepts one of `subjects` (no subjects: all of them). */
export function hooksMatching(hooks: readonly HookDefinition[], event: HookEvent, subjects: HookSubjects): HookDefinition[] {
  return hooks.filter((hook) => {
    if (hook.event !== event) return false;
    const names = typeof subjects === "function" ? subjects(hook.dialect) : subjects;
    return names.length === 0 || matcherMatches(hook.matcher, names);
  });
}

export class HookRunner {
  private cancelAll = new AbortController();

  constructor(private readonly options: HookRunnerOptions) {}

  get hooks(): readonly HookDefinition[] {
    return this.options.hooks;
  }

  has(event: HookEvent): boolean {
    return this.options.hooks.some((hook) => hook.event === event);
  }

  /** Hooks of `event` whose matcher accepts one of `subjects` (tool names, or `startup` / `resume` ...). */
  matching(event: HookEvent, subjects: HookSubjects): HookDefinition[] {
    return hooksMatching(this.options.hooks, event, subjects);
  }

  async run(event: HookEvent, payload: HookPayload, options: { subjects?: HookSubjects; signal?: AbortSignal } = {}): Promise<CombinedHookResult> {
    const hooks = this.matching(event, options.subjects ?? []);
    if (hooks.length === 0) return { ran: 0, contexts: [] };
    const signals = [this.cancelAll.signal, ...(options.signal ? [options.signal] : [])];
    const signal = AbortSignal.any(signals);
    const spawn = this.options.spawn ?? spawnHook;
    const reports = await Promise.all(
      hooks.map(async (hook): Promise<HookReport> => {
        const held = await this.options.mayRun?.(hook);
        if (held !== undefined) {
          const report: HookReport = { event, hook, result: heldResult, verdict: { problem: `did not run: ${held}`, notStarted: true } };
          this.options.onReport?.(report);
          return report;
        }
        const fields = {
          ...this.options.basePayload(),
          ...(typeof payload === "function" ? payload(hook.dialect) : payload),
          hook_event_name: hook.configuredAs,
          cairn_event: event,
          // The old `{"TaskStart": "cmd"}` hooks read `hook`.
          hook: event,
        };
        // A hook written for Cline reads Cline's fields (`preToolUse.toolName` ...); cairn's stay beside them.
        const input = JSON.stringify(hook.dialect === "cline" ? { ...fields, ...clineHookInput({ event, hookName: hook.configuredAs, fields, cwd: this.options.cwd, version: "cairn" }) } : fields);
        if (hook.callback !== undefined) {
          // In-process (the SDK's callbacks): the same input, parsed; the answer read as a command's output.
          const ran = await runHookCallback({ callback: hook.callback, input, event, dialect: hook.dialect, label: hookLabel(hook), timeoutMs: hook.timeoutMs, signal });
          const report: HookReport = { event, hook, ...ran };
          this.options.onReport?.(report);
          return report;
        }
        // The user's own hooks may keep their scripts where the sandbox hides everything (`~/.claude/hooks/`, cairn's config folder):
        // those files stay readable for them. A project's hook never unhides anything.
        const visible = hook.scope === "project" || this.options.launchPolicy?.sandbox === undefined ? [] : [...(hook.visible ?? []), ...(await commandFiles(hook.command, this.options.cwd))];
        const env = hook.env === undefined ? this.options.env : { ...this.options.env, ...hook.env };
        const result = await spawn({
          command: hook.command,
          cwd: this.options.cwd,
          input,
          timeoutMs: hook.timeoutMs,
          signal,
          ...(env ? { env } : {}),
          ...(this.options.launchPolicy ? { launchPolicy: this.options.launchPolicy } : {}),
          ...(visible.length === 0 ? {} : { visible }),
        });
        const report = { event, hook, result, verdict: readHookOutput(result, hook.dialect) };
        this.options.onReport?.(report);
        return report;
      }),
    );
    return combine(event, reports);
  }

  /** Cancels every hook still running (the task is aborting). */
  cancelRunning(): void {
    this.cancelAll.abort();
    this.cancelAll = new AbortController();
  }
}

function combine(event: HookEvent, reports: readonly HookReport[]): CombinedHookResult {
  const combined: CombinedHookResult = { ran: reports.length, contexts: [] };
  const verdicts = reports.map((report) => report.verdict);
  const strongest = (["block", "ask", "allow"] as const).find((decision) => verdicts.some((verdict) => verdict.decision === decision));
  if (strongest) {
    combined.decision = strongest;
    const reasons = verdicts.filter((verdict) => verdict.decision === strongest && verdict.reason !== undefined).map((verdict) => verdict.reason);
    if (reasons.length > 0) combined.reason = reasons.join("\n");
  }
  for (const { verdict, hook } of reports) {
    if (verdict.additionalContext !== undefined) combined.contexts.push(verdict.additionalContext);
    else if (verdict.plainOutput !== undefined && verdict.problem === undefined && plainOutputIsContext.has(event)) combined.contexts.push(verdict.plainOutput);
    if (verdict.updatedInput !== undefined && combined.updatedInput === undefined) {
      combined.updatedInput = verdict.updatedInput;
      combined.updatedInputDialect = hook.dialect;
    }
    if (verdict.notStarted === true) (combined.notStarted ??= []).push(`${hookLabel(hook)}: ${verdict.problem ?? "it could not start"}`);
    if (verdict.stopReason !== undefined) combined.stopReason = combined.stopReason === undefined ? verdict.stopReason : `${combined.stopReason}\n${verdict.stopReason}`;
  }
  return combined;
}

/** Context from hooks, framed so the model knows where it came from. */
export function hookContextText(event: HookEvent, contexts: readonly string[]): string | undefined {
  if (contexts.length === 0) return undefined;
  return `<hook_context event="${event}">\n${contexts.join("\n\n")}\n</hook_context>`;
}
