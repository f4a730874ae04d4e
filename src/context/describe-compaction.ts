import type { CompactionReason, CompactionResult } from "./compact-conversation.js";

/**
 * The meta of the `condense` message (typed here, next to its writer; the
 * Task's contracts map the `condense` kind to it).
 */
export type CondenseMeta = (
  | { reason: CompactionReason; step: "reads"; replacedReads: number; tokensBefore: number; tokensAfter: number }
  | {
      reason: CompactionReason;
      step: "summary";
      summary: string;
      summarisedMessages: number;
      keptMessages: number;
      truncatedForSummary: number;
      replacedReads: number;
      files: string[];
      missing: { files: string[]; items: string[] };
      tokensBefore: number;
      tokensAfter: number;
    }
) & {
  /** What the summary requests of this task cost so far (context-manager.ts). */
  summaryRequests?: { requests: number; tokensIn: number; tokensOut: number; cost: number };
};

const reasons: Record<CompactionReason, string> = {
  threshold: "the conversation neared the context window",
  context_window: "the provider said the request did not fit the context window",
  manual: "you asked for it",
};

/** The `condense` message: what was condensed, why, and the summary itself. */
export function describeCompaction(result: Exclude<CompactionResult, { kind: "none" }>, reason: CompactionReason): { text: string; meta: CondenseMeta } {
  const tokens = `about ${result.tokensBefore.toLocaleString("en-US")} → ${result.tokensAfter.toLocaleString("en-US")} tokens`;
  if (result.kind === "reads") {
    return {
      text: `Condensed the conversation (${reasons[reason]}): ${result.replacedReads} earlier reads of files that were read again later became one-line notes (${tokens}).`,
      meta: { reason, step: "reads", replacedReads: result.replacedReads, tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter },
    };
  }
  const parts = [
    `Condensed ${result.summarisedMessages} earlier messages into a summary (${reasons[reason]}; ${tokens}).`,
    `Kept verbatim: the task, ${result.keptMessages} recent messages${result.files.length > 0 ? `, and the current content of ${result.files.join(", ")}` : ""}.`,
  ];
  if (result.truncatedForSummary > 0) parts.push(`${result.truncatedForSummary} middle messages did not fit the summary request and were left out of it.`);
  if (result.replacedReads > 0) parts.push(`${result.replacedReads} superseded file reads became notes.`);
  parts.push("The full history stays in the task log; /uncompact restores it.", "", result.summary);
  return {
    text: parts.join("\n"),
    meta: {
      reason,
      step: "summary",
      summary: result.summary,
      summarisedMessages: result.summarisedMessages,
      keptMessages: result.keptMessages,
      truncatedForSummary: result.truncatedForSummary,
      replacedReads: result.replacedReads,
      files: result.files,
      missing: result.missing,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    },
  };
}
