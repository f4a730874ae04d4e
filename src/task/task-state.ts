import { Round, emptyBlockList } from "./round.js";
import type { BlockList } from "./round.js";
import type { Protocol } from "./history-content.js";
import { StateLock } from "./state-lock.js";

export type { BlockList, StreamCut } from "./round.js";

/**
 * The state of a task that outlives a round (the abort flag, completion) and
 * the round being requested and presented now. SPEC T10: each recursion starts
 * a new Round instead of resetting fields one by one.
 */
export class TaskState {
  abort = false;
  /** Set once `attempt_completion` (or `new_task`) was accepted. */
  completed = false;
  /** Replaced, never reset, at the start of each recursion. */
  round: Round;

  constructor(private readonly options: { protocol: Protocol; parallelTools: boolean; stateLock: StateLock } = { protocol: "xml", parallelTools: false, stateLock: new StateLock() }) {
    this.round = new Round(emptyBlockList, options);
  }

  /** SPEC T10: a new round, with nothing carried over from the last one. */
  startRound(blocks: BlockList): Round {
    this.round.wakeAllWaiters();
    this.round = new Round(blocks, this.options);
    return this.round;
  }

  /** Resolves when the round's blocks are all presented, or at once when the task is aborted. */
  waitForUserMessageContentReady(): Promise<void> {
    if (this.abort) return Promise.resolve();
    return this.round.waitForUserMessageContentReady();
  }

  wakeAllWaiters(): void {
    this.round.wakeAllWaiters();
  }
}
