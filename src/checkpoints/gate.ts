import type { CheckpointGate } from "../task/contracts/seams.js";
import type { ConversationPosition } from "../store/types.js";
import { CheckpointUnavailableError } from "./git.js";
import type { CheckpointReason, CheckpointTracker } from "./tracker.js";

export interface CheckpointGateOptions {
  /** Undefined when checkpoints are off (e.g. disabled in settings). */
  tracker: CheckpointTracker | undefined;
  taskId: string;
  /** How long the first snapshot may take before checkpoints are turned off for the task (default 15 s). */
  firstTimeoutMs?: number;
  /** How long a later snapshot may take (default 15 s). */
  commitTimeoutMs?: number;
  /** Where the conversation stands, recorded in each checkpoint so `restore --task` can cut back to it. */
  position?: () => ConversationPosition;
  onCreated: (hash: string, reason: CheckpointReason) => void;
  onWarning: (text: string) => void;
}

type GateState = { kind: "idle" } | { kind: "starting"; done: Promise<void> } | { kind: "ready" } | { kind: "disabled" };

class TimedOut extends Error {}

/**
 * The Task's view of checkpoints (SPEC T16). Nothing here may stall a task: a
 * snapshot that takes longer than its bound is abandoned and checkpoints are turned
 * off for the task with a warning; any failure does the same.
 */
export function createCheckpointGate(options: CheckpointGateOptions): CheckpointGate {
  const firstTimeoutMs = options.firstTimeoutMs ?? 15_000;
  const commitTimeoutMs = options.commitTimeoutMs ?? 15_000;
  let state: GateState = options.tracker === undefined ? { kind: "disabled" } : { kind: "idle" };
  /** The last checkpoint started after the first (a turn's runs beside the next request); never rejects. */
  let latest: Promise<unknown> = Promise.resolve();
  /** What changed since the last checkpoint was started: the files tools named, or anything. */
  let unrecorded: Set<string> | "anything" = new Set();

  function disable(text: string): void {
    if (state.kind === "disabled") return;
    state = { kind: "disabled" };
    options.onWarning(text);
  }

  function describe(error: unknown): string {
    if (error instanceof CheckpointUnavailableError) return error.message;
    return `checkpoints are off for this task: ${error instanceof Error ? error.message : String(error)}`;
  }

  /** Runs one snapshot with a time bound; the git process is killed when the bound passes. */
  async function bounded(reason: CheckpointReason, timeoutMs: number, work: (tracker: CheckpointTracker, signal: AbortSignal) => Promise<string | undefined>): Promise<string | undefined> {
    const tracker = options.tracker!;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TimedOut());
      }, timeoutMs);
    });
    const running = work(tracker, controller.signal);
    try {
      const hash = await Promise.race([running, timeout]);
      if (hash !== undefined) options.onCreated(hash, reason);
      return hash;
    } catch (error) {
      if (error instanceof TimedOut) {
        await running.catch(() => undefined);
        await tracker.clearAbortedLock().catch(() => undefined);
        const bound = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
        disable(`checkpoints are off for this task: snapshotting the workspace took longer than ${bound} ` + `(is it very large? add big folders to .gitignore to keep checkpoints)`);
      } else {
        disable(describe(error));
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  function note(reason: CheckpointReason) {
    return { taskId: options.taskId, reason, ...(options.position?.() ?? {}) };
  }

  return {
    startInitial(): void {
      if (state.kind !== "idle") return;
      const done = bounded("initial", firstTimeoutMs, async (tracker, signal) => {
        await tracker.init({ signal, firstCheckpoint: true });
        return tracker.commit(note("initial"), { signal });
      }).then(() => {
        if (state.kind === "starting") state = { kind: "ready" };
      });
      state = { kind: "starting", done };
    },

    async waitInitial(): Promise<void> {
      if (state.kind === "starting") await state.done;
      await latest;
    },

    noteChanges(paths: readonly string[] | undefined): void {
      if (paths === undefined) unrecorded = "anything";
      else if (unrecorded !== "anything") for (const path of paths) unrecorded.add(path);
    },

    commit(reason: "turn" | "completion"): Promise<string | undefined> {
      // Where the conversation stands now, not when the checkpoint gets its turn.
      const position = note(reason);
      const paths = unrecorded === "anything" ? undefined : [...unrecorded];
      unrecorded = new Set();
      const previous = latest;
      const made = (async () => {
        await previous;
        if (state.kind === "starting") await state.done;
        if (state.kind === "idle") {
          // No initial checkpoint was started: this one becomes the first.
          this.startInitial();
          const started = state as GateState;
          if (started.kind === "starting") await started.done;
        }
        if (state.kind !== "ready") return undefined;
        // No tool changed a file since the last checkpoint (a completion after reading): as for a turn that
        // only read, there is nothing to record and no git to run (the stream's end waits for none).
        if (paths?.length === 0) return undefined;
        // A completion that changed nothing since the last checkpoint would only repeat it (issue 18).
        const known = paths === undefined ? {} : { paths };
        return bounded(reason, commitTimeoutMs, (tracker, signal) => tracker.commit(position, { onlyIfChanged: true, signal, ...known }));
      })();
      latest = made.catch(() => undefined);
      return made;
    },
  };
}
