import type { Block, ToolUseBlock } from "../parser/types.js";
import { TaskAbortedError } from "./errors.js";
import type { SayOptions } from "./message-state.js";
import type { SayType } from "./contracts/messages.js";
import type { Round } from "./round.js";
import type { TaskState } from "./task-state.js";
import type { SkipReason } from "./tool-runner.js";

/** What the presenter needs from its Task. */
export interface PresenterContext {
  readonly taskState: TaskState;
  readonly parallelTools: boolean;
  say(type: SayType, text: string, options?: SayOptions): string;
  /** A cleaner for one growing text block (P12); only the message's first update keeps it. */
  textCleaner(): (raw: string, partial: boolean) => string;
  /** Shows a tool call that is still streaming (never runs it). */
  presentPartialTool(block: ToolUseBlock, round: Round): void;
  /** Runs a complete tool call and records its result (SPEC T19: through the ToolExecutor). */
  runTool(block: ToolUseBlock, round: Round): Promise<void>;
  /** Records that a tool was not run, with the reason the model is given. */
  skipTool(block: ToolUseBlock, reason: SkipReason, round: Round): Promise<void>;
  presentAssistantMessage(): Promise<void>;
}

/** SPEC P6: the stream may still change the original block. */
function cloneBlock(block: Block): Block {
  return block.type === "tool_use" ? { ...block, params: { ...block.params } } : { ...block };
}

/**
 * The block pusher (SPEC P1–P14). Each call advances the current block by one
 * and calls itself for the next block if it already exists.
 */
export async function presentAssistantMessage(context: PresenterContext): Promise<void> {
  if (context.taskState.abort) throw new TaskAbortedError(); // P8
  // P2: the state lives on the round being presented (a new one each recursion, T10).
  const round = context.taskState.round;

  // P3: lock + pending, not a queue; many stream callbacks merge into one run.
  if (round.presenterLock !== "idle") {
    round.presenterLock = "presenting-with-pending-update";
    return;
  }
  round.presenterLock = "presenting";

  const index = round.currentStreamingContentIndex;
  const original = round.assistantMessageContent.at(index);
  if (original === undefined) {
    // P7: past the end means the next block has not arrived yet, or never will (ready once the stream is complete).
    round.markUserMessageContentReady();
    round.presenterLock = "idle";
    return;
  }
  const block = cloneBlock(original);
  const serialGateClosed = round.didAlreadyUseTool && !context.parallelTools;
  let pendingUpdate: boolean;

  try {
    switch (block.type) {
      case "reasoning": // P14
        if (block.redactedData !== undefined && block.content === "") {
          context.say("reasoning", "[redacted thinking]", { partial: false, key: `reasoning:${index}` });
        } else {
          context.say("reasoning", block.content, { partial: block.partial, key: `reasoning:${index}` });
        }
        break;
      case "text":
        if (round.didRejectTool) break; // P9
        context.say("text", block.content, {
          partial: block.partial && round.streamCut === undefined,
          key: `text:${index}`,
          transform: context.textCleaner(), // P12
        });
        break;
      case "tool_use":
        if (round.didRejectTool) {
          await context.skipTool(block, "rejected", round); // P9
        } else if (serialGateClosed) {
          await context.skipTool(block, "serial", round); // P5
        } else if (block.partial && round.streamCut !== undefined) {
          await context.skipTool(block, round.streamCut, round); // #11 item 1: a cut-off call never runs
        } else if (block.partial) {
          context.presentPartialTool(block, round);
        } else {
          // P4: run as soon as the block is complete, while the answer still streams.
          // P10 (T16): the Task's runTool waits for the initial checkpoint unless the tool is read-only.
          round.markRunning(block.id);
          await context.runTool(block, round);
        }
        break;
    }
  } finally {
    // P11: unlock before moving on, because this method calls itself below.
    pendingUpdate = round.presentAssistantMessageHasPendingUpdates;
    round.presenterLock = "idle";
  }

  // P13: advance when the block is done, a tool was rejected, the serial gate is closed,
  // or the stream was cut (nothing partial of it will ever complete).
  if (!block.partial || round.didRejectTool || serialGateClosed || round.streamCut !== undefined) {
    round.currentStreamingContentIndex = index + 1;
    if (index + 1 < round.assistantMessageContent.length) {
      await context.presentAssistantMessage();
      return;
    }
    // cairn marks "ready" only once the stream is complete: a block can still arrive otherwise.
    round.markUserMessageContentReady();
  }
  if (pendingUpdate) await context.presentAssistantMessage();
}

/**
 * The text that streamed since the last presentation frame (growing blocks are shown once per
 * frame) is shown before an abort closes the messages, so that the screen and the log keep the
 * answer as far as the history keeps it (SPEC T5). Tool calls are not presented: none may run now.
 */
export function presentStreamedText(context: PresenterContext, round: Round): void {
  const blocks = round.assistantMessageContent;
  for (let index = round.currentStreamingContentIndex; index < blocks.length; index += 1) {
    const block = blocks.at(index);
    if (block?.type === "text" && !round.didRejectTool) {
      context.say("text", block.content, { partial: true, key: `text:${index}`, transform: context.textCleaner() });
    } else if (block?.type === "reasoning" && block.redactedData === undefined) {
      context.say("reasoning", block.content, { partial: true, key: `reasoning:${index}` });
    }
  }
}
