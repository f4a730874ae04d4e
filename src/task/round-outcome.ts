import type { ContentBlock } from "../llm/types.js";

/**
 * How a round ended: the one decision `finishRound` returns to
 * `recursivelyMakeRequests`, which recurses in one place (#11 item 5).
 */
export type RoundOutcome =
  /** attempt_completion was accepted: the task is done. */
  | { kind: "done" }
  /** The answer used no tool: back to the outer loop for a reminder (SPEC T3). */
  | { kind: "no_tools" }
  /** Tools ran: their results are the next request's user content (SPEC T6). */
  | { kind: "continue"; userContent: ContentBlock[] }
  /** The answer failed (empty, or the stream broke after its first chunk): ask again. */
  | { kind: "retry"; reason: "empty_answer" | "stream_failed"; userContent: ContentBlock[] };
