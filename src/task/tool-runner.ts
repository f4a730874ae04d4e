import type { ToolUseBlock } from "../parser/types.js";
import type { RepetitionVerdict } from "./mistakes.js";
import type { SayOptions } from "./message-state.js";
import type { AskMeta, ToolEndMeta } from "./contracts/message-meta.js";
import type { AskResponse, AskType, SayType } from "./contracts/messages.js";
import * as responses from "./responses.js";
import type { StreamCut } from "./round.js";
import type { CheckpointGate } from "./contracts/seams.js";
import type { Mode, ToolCallContext, ToolExecutor, ToolOutcome, ToolOutcomeStatus } from "./contracts/tool-executor.js";

/** What the runner needs of its Task: the exits to the user and what a tool call may read. */
export interface ToolRunnerTask {
  readonly signal: AbortSignal;
  readonly mode: Mode;
  say(type: SayType, text: string, options?: SayOptions): string;
  ask<T extends AskType>(type: T, text: string, meta?: AskMeta<T>): Promise<AskResponse>;
}

/** Why a tool call is not run: the serial gate closed (SPEC P5), a tool was rejected (P9), or the stream was cut. */
export type SkipReason = "serial" | "rejected" | StreamCut;

/**
 * What running one tool call produced. The runner changes no task state: the
 * Task applies this (#11 item 5), so one place decides what a result does to
 * the round, the mistake count, the mode and completion.
 */
export interface ExecutedToolRun {
  block: ToolUseBlock;
  status: ToolOutcomeStatus;
  /** What goes back to the model as the tool's result. */
  content: ToolOutcome["content"];
  /** What the tool's card shows when the call ends (a command's exit, a failure's reason). */
  card?: ToolOutcome["card"];
  /** The tool may have changed the workspace (checkpoint after the round). */
  mutating: boolean;
  completed: boolean;
  switchMode?: Mode;
  /** The same call repeated (SPEC T9): "limit" counts as reaching the mistake limit. */
  repetition: RepetitionVerdict;
}

/** A tool call that was not run: only its reason goes back to the model. */
export interface SkippedToolRun {
  block: ToolUseBlock;
  status: "skipped";
  reason: SkipReason;
  content: string;
}

export type ToolRun = ExecutedToolRun | SkippedToolRun;

/** Where the previews of the calls still streaming are throttled (the round keeps it per call). */
export interface PreviewLog {
  previewedAt(id: string): number | undefined;
  markPreviewed(id: string, at: number): void;
}

/**
 * The meta a tool's message gets when its call ended (#11: visible everywhere:
 * printer, TUI card, --json, cairn show, ACP): why it failed or did not run,
 * and how a command ended; undefined when there is nothing to add.
 */
export function toolEndMeta(run: ExecutedToolRun): ToolEndMeta | undefined {
  const ending: ToolEndMeta = {};
  if (run.card?.end !== undefined) ending.end = run.card.end;
  if (run.card?.durationMs !== undefined) ending.durationMs = run.card.durationMs;
  if (run.card?.diagnostics !== undefined) ending.diagnostics = run.card.diagnostics;
  if (run.status === "error" || run.status === "mistake" || run.status === "rejected") {
    const text = typeof run.content === "string" ? run.content : run.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    const error = run.card?.error ?? text.trim().replace(/^The tool failed:\s*/, "");
    ending.status = run.status === "rejected" ? "rejected" : "error";
    ending.error = error.length > 2000 ? `${error.slice(0, 2000)}…` : error;
  }
  return Object.keys(ending).length === 0 ? undefined : ending;
}

/**
 * What one call said it would change: the files it named, or anything (it announced a
 * change without paths, or never announced one: a tool that does not say, such as an
 * MCP tool, may have changed anything).
 */
class ChangeNote {
  private readonly named = new Set<string>();
  private announced = false;
  private anything = false;

  announce(paths: readonly string[] | undefined): void {
    this.announced = true;
    if (paths === undefined) this.anything = true;
    else for (const path of paths) this.named.add(path);
  }

  get paths(): readonly string[] | undefined {
    return this.announced && !this.anything ? [...this.named] : undefined;
  }
}

/** Runs the tool blocks of an answer through the ToolExecutor (SPEC T19). */
export class ToolRunner {
  constructor(
    private readonly options: {
      task: ToolRunnerTask;
      executor: ToolExecutor;
      checkpoints: CheckpointGate;
      noteToolCall: (block: ToolUseBlock) => RepetitionVerdict;
      now: () => number;
      partialUpdateIntervalMs: number;
      budget?: { beforeToolCall(): string | undefined };
    },
  ) {}

  /**
   * A tool's preview of a call still streaming may look at the whole of a long
   * parameter (a file's content), so it runs at most once per update interval,
   * not on every chunk: the stream's cost stays linear (P-perf-2).
   */
  presentPartial(block: ToolUseBlock, previews: PreviewLog): void {
    const now = this.options.now();
    const last = previews.previewedAt(block.id);
    if (last !== undefined && now - last < this.options.partialUpdateIntervalMs) return;
    previews.markPreviewed(block.id, now);
    this.options.executor.presentPartial(block, this.context());
  }

  context(changes?: ChangeNote): ToolCallContext {
    const task = this.options.task;
    return {
      say: (type, text, options) => {
        task.say(type, text, options);
      },
      ask: (type, text, options) => task.ask(type, text, options?.meta),
      signal: task.signal,
      mode: task.mode,
      beforeMutation: (paths) => {
        changes?.announce(paths);
        return this.options.checkpoints.waitInitial();
      },
    };
  }

  /** SPEC T19: every tool goes through the executor; the outcome goes back to the Task. */
  async run(block: ToolUseBlock): Promise<ExecutedToolRun> {
    const { executor } = this.options;
    const repetition = this.options.noteToolCall(block);
    const readOnly = executor.isReadOnly(block.name);
    if (!readOnly) await this.options.checkpoints.waitInitial(); // SPEC T16, P10
    const overBudget = this.options.budget?.beforeToolCall();
    const changes = new ChangeNote();
    const outcome = overBudget !== undefined ? { status: "error" as const, content: `${block.name} did not run. ${overBudget}` } : await executor.executeTool(block, this.context(changes));
    // What the next checkpoint stages: the files the tool named, or everything.
    if (!readOnly) this.options.checkpoints.noteChanges(changes.paths);
    let content = outcome.content;
    if (repetition !== "ok") {
      const warning = responses.repeatedToolCall(block.name);
      content = typeof content === "string" ? `${content}\n\n${warning}` : [...content, { type: "text", text: warning }];
    }
    return {
      block,
      status: outcome.status,
      content,
      ...(outcome.card === undefined ? {} : { card: outcome.card }),
      mutating: !readOnly,
      completed: outcome.completed === true,
      ...(outcome.switchMode === undefined ? {} : { switchMode: outcome.switchMode }),
      repetition,
    };
  }

  /** A tool that is not run, with the reason the model is given. */
  skip(block: ToolUseBlock, reason: SkipReason): SkippedToolRun {
    const text =
      reason === "serial"
        ? responses.toolSkippedSerial(block.name)
        : reason === "rejected"
          ? responses.toolSkippedAfterRejection(block.name)
          : reason === "output_limit"
            ? responses.toolSkippedAtOutputLimit(block.name)
            : responses.toolSkippedAfterStreamFailure(block.name);
    if (reason === "output_limit") this.options.task.say("warning", responses.toolCutOffNotice(block.name));
    return { block, status: "skipped", reason, content: text };
  }
}
