import type { Block, ToolUseBlock } from "../parser/types.js";
import { TaskAbortedError } from "./errors.js";
import type { SayOptions } from "./message-state.js";
import type { SayType } from "./messages.js";
import type { StreamCut, TaskState } from "./task-state.js";

/** What the presenter needs from its Task. */
export interface PresenterContext {
  readonly taskState: TaskState;
  readonly parallelTools: boolean;
  say(type: SayType, text: string, options?: SayOptions): string;
  cleanText(raw: string, partial: boolean): string;
  /** Shows a tool call that is still streaming (never runs it). */
  presentPartialTool(block: ToolUseBlock): void;
  /** Runs a complete tool call and records its result (SPEC T19: through the ToolExecutor). */
  runTool(block: ToolUseBlock): Promise<void>;
  /** Records that a tool was not run, with the reason the model is given. */
  skipTool(block: ToolUseBlock, reason: "serial" | "rejected" | StreamCut): void;
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
  const state = context.taskState;
  if (state.abort) throw new TaskAbortedError(); // P8

  // P3: lock + pending, not a queue; many stream callbacks merge into one run.
  if (state.presentAssistantMessageLocked) {
    state.presentAssistantMessageHasPendingUpdates = true;
    return;
  }
  state.presentAssistantMessageLocked = true;
  state.presentAssistantMessageHasPendingUpdates = false;

  const index = state.currentStreamingContentIndex;
  const original = state.assistantMessageContent.at(index);
  if (original === undefined) {
    // P7: past the end means the next block has not arrived yet, or never will.
    if (state.didCompleteReadingStream) state.markUserMessageContentReady();
    state.presentAssistantMessageLocked = false;
    return;
  }
  const block = cloneBlock(original);
  const serialGateClosed = state.didAlreadyUseTool && !context.parallelTools;

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
        if (state.didRejectTool) break; // P9
        context.say("text", block.content, {
          partial: block.partial && state.streamCut === undefined,
          key: `text:${index}`,
          transform: (raw, partial) => context.cleanText(raw, partial), // P12
        });
        break;
      case "tool_use":
        if (state.didRejectTool) {
          context.skipTool(block, "rejected"); // P9
        } else if (serialGateClosed) {
          context.skipTool(block, "serial"); // P5
        } else if (block.partial && state.streamCut !== undefined) {
          context.skipTool(block, state.streamCut); // #11 item 1: a cut-off call never runs
        } else if (block.partial) {
          context.presentPartialTool(block);
        } else {
          // P4: run as soon as the block is complete, while the answer still streams.
          // P10 (T16): the Task's runTool waits for the initial checkpoint unless the tool is read-only.
          await context.runTool(block);
        }
        break;
    }
  } finally {
    // P11: unlock before moving on, because this method calls itself below.
    state.presentAssistantMessageLocked = false;
  }

  // P13: advance when the block is done, a tool was rejected, the serial gate is closed,
  // or the stream was cut (nothing partial of it will ever complete).
  if (!block.partial || state.didRejectTool || serialGateClosed || state.streamCut !== undefined) {
    state.currentStreamingContentIndex = index + 1;
    if (index + 1 < state.assistantMessageContent.length) {
      await context.presentAssistantMessage();
      return;
    }
    // cairn marks "ready" only once the stream is complete: a block can still arrive otherwise.
    if (state.didCompleteReadingStream) state.markUserMessageContentReady();
  }
  if (state.presentAssistantMessageHasPendingUpdates) await context.presentAssistantMessage();
}
