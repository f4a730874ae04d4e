import type { ProviderError } from "../llm/errors.js";
import type { ContentBlock } from "../llm/types.js";
import type { Protocol } from "./contracts/task-options.js";
import type { ApiRequestMeta } from "./contracts/message-meta.js";
import type { CheckpointGate } from "./contracts/seams.js";
import type { ConversationHistory } from "./conversation-history.js";
import { TaskAbortedError } from "./errors.js";
import type { FailureDecisions } from "./failure-decisions.js";
import { assistantHistoryContent } from "./history-content.js";
import type { MessageState } from "./message-state.js";
import * as responses from "./responses.js";
import type { Round } from "./round.js";
import type { RoundOutcome } from "./round-outcome.js";
import type { StreamAssembler } from "./stream-assembler.js";
import type { TaskState } from "./task-state.js";

/** What the Task lends the end of a round: its state, history and messages, and a few of its steps. */
export interface RoundCloser {
  readonly protocol: Protocol;
  readonly taskState: TaskState;
  readonly history: ConversationHistory;
  readonly messages: MessageState;
  readonly failures: FailureDecisions;
  readonly checkpoints: CheckpointGate;
  /** Condenses the history after a context-window error; true when it now fits. */
  afterContextWindowError?(): Promise<boolean>;
  schedulePresentation(): void;
  /** Shows the text streamed so far (an interrupted round keeps it). */
  presentStreamedText(round: Round): void;
  finishRequestMessage(extra: Pick<ApiRequestMeta, "cancelReason" | "error" | "stopReason">): void;
  /** Throws when the workspace folder is gone, before anything could recreate it. */
  stopIfWorkspaceGone(): void;
}

/** A round's answer as the stream left it. */
export interface StreamedRound {
  round: Round;
  assembler: StreamAssembler;
  rawText: string;
  note?: string;
  streamError?: ProviderError;
  stopReason?: string;
}

/**
 * The one decision after each round: done, no tools, continue with the tool
 * results, or retry for a reason. The stop reason is read here.
 */
export async function finishRound(closer: RoundCloser, finished: StreamedRound): Promise<RoundOutcome> {
  const { round, assembler, streamError } = finished;
  const { taskState, history, failures } = closer;
  const cutAtOutputLimit = !streamError && finished.stopReason === "max_tokens";
  if (streamError) {
    round.streamPhase = { kind: "cut", reason: "stream_failed" }; // nothing half-streamed runs
  } else if (cutAtOutputLimit) {
    round.streamPhase = { kind: "cut", reason: "output_limit" }; // a call cut by the output limit is incomplete
  } else {
    assembler.finish(); // SPEC T17
    round.streamPhase = { kind: "complete" };
  }
  // The request is over once its stream is: its message gets its tokens and cost now, not after its tools
  // ran (a subagent's card counts them while the child waits for an approval). The provider's stop reason
  // rides on it (an editor's turn can end with it).
  closer.finishRequestMessage(streamError ? { cancelReason: "streaming_failed", error: streamError.message } : finished.stopReason === undefined ? {} : { stopReason: finished.stopReason });
  closer.schedulePresentation();
  await taskState.waitForUserMessageContentReady();
  await saveIfInterrupted(closer, finished);
  if (round.presentationError !== undefined) {
    throw round.presentationError instanceof Error ? round.presentationError : new Error("presenting the answer failed", { cause: round.presentationError });
  }
  closer.messages.finalizeOpen();

  let note = finished.note;
  if (cutAtOutputLimit) note = responses.interruptedByOutputLimit;
  if (round.didRejectTool) note = responses.interruptedByUserFeedback; // SPEC T14, also when the stream had ended
  if (streamError) note = responses.interruptedByApiError(streamError.message);
  const blocks = assembler.toArray();
  const assistantContent = roundContent(closer.protocol, finished, note);
  const hasToolUse = blocks.some((block) => block.type === "tool_use");
  const hasText = blocks.some((block) => block.type === "text" && block.content.trim().length > 0);
  if (!hasToolUse && !hasText && !streamError) {
    // SPEC T13: recorded, and a retry offered.
    closer.messages.say("empty_assistant_message", "The model returned an empty answer.");
    const recorded = assistantContent.length > 0 ? assistantContent : [{ type: "text" as const, text: "Failure: I did not provide a response." }];
    await history.add({ role: "assistant", content: recorded });
    await failures.afterEmptyAnswer();
    return { kind: "retry", reason: "empty_answer", userContent: [{ type: "text", text: responses.emptyAnswerRetry() }] };
  }
  await history.add({ role: "assistant", content: assistantContent });

  if (streamError) {
    // Keep what completed and go on where the answer was cut (after condensing, if it no longer fit).
    const condensed = streamError.kind === "context_window" && (await closer.afterContextWindowError?.()) === true;
    if (!condensed) await failures.afterStreamFailure(streamError);
    return {
      kind: "retry",
      reason: "stream_failed",
      userContent: [...round.userMessageContent, { type: "text", text: responses.continueAfterApiError(streamError.message) }],
    };
  }
  failures.streamSucceeded();
  if (taskState.completed) {
    closer.stopIfWorkspaceGone();
    await closer.checkpoints.commit("completion");
    return { kind: "done" };
  }
  if (!hasToolUse) return { kind: "no_tools" };
  if (round.didRunMutatingTool) {
    closer.stopIfWorkspaceGone();
    // Not waited for: it runs beside the next request, and the next tool that changes files waits for it (gate.ts).
    void closer.checkpoints.commit("turn");
  }
  return { kind: "continue", userContent: [...round.userMessageContent] };
}

/**
 * SPEC T5: an aborted round keeps what it had: the partial answer, marked as
 * interrupted, and the results of tools that finished, so resume loses nothing.
 * An abort after the user accepted the completion is no interruption: the round
 * ends as a completed one.
 */
export async function saveIfInterrupted(closer: RoundCloser, streamed: StreamedRound): Promise<void> {
  if (!closer.taskState.abort || closer.taskState.completed) return;
  closer.finishRequestMessage({ cancelReason: "user_cancelled" });
  closer.presentStreamedText(streamed.round);
  closer.messages.finalizeOpen();
  await closer.history.add({ role: "assistant", content: roundContent(closer.protocol, streamed, responses.interruptedByUser) });
  const results = streamed.round.userMessageContent;
  if (results.length > 0) await closer.history.add({ role: "user", content: [...results] });
  throw new TaskAbortedError();
}

/** The assistant message the history keeps for this round (cut at the tool that stopped it). */
function roundContent(protocol: Protocol, { round, assembler, rawText }: StreamedRound, note: string | undefined): ContentBlock[] {
  return assistantHistoryContent({
    protocol,
    blocks: assembler.toArray(),
    rawText,
    answeredToolIds: round.answeredToolIds,
    toolInput: (id) => assembler.toolInput(id),
    ...(note ? { note } : {}),
    ...(round.stoppingToolId ? { cutAfterToolId: round.stoppingToolId } : {}),
  });
}
