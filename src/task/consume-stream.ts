import { ProviderError, toProviderError } from "../llm/errors.js";
import { forEachChunk } from "../llm/chunk-stream.js";
import type { Chunk } from "../llm/types.js";
import type { OpenedStream } from "./attempt-api-request.js";
import { PresentationFrame } from "./presentation-frame.js";
import * as responses from "./responses.js";
import type { StreamAssembler } from "./stream-assembler.js";
import type { Round } from "./round.js";
import type { TaskState } from "./task-state.js";
import type { UsageCounter } from "./usage-counter.js";

export interface ConsumedStream {
  /** The answer's text as streamed (the xml history keeps it). */
  rawText: string;
  /** Why the stream was stopped early, for the history. */
  note?: string;
  /** The stream failed after its first chunk. */
  streamError?: ProviderError;
  /** The provider's normalised stop reason (`max_tokens` when the output limit cut the answer). */
  stopReason?: string;
}

/**
 * SPEC T12: reads the stream, each chunk kind to its own handler, and
 * schedules presentation as blocks change (T7). Stops early after a rejection
 * (T14) or, with the serial gate, after the first tool (P5). Never throws for
 * a provider failure: it is returned for the Task to retry.
 */
export async function consumeStream(options: {
  opened: OpenedStream;
  assembler: StreamAssembler;
  taskState: TaskState;
  round: Round;
  usage: UsageCounter;
  parallelTools: boolean;
  providerName: string;
  schedulePresentation: () => void;
  /** Growing blocks are presented at most once per this many ms (0: on every delta). */
  presentationFrameMs: number;
}): Promise<ConsumedStream> {
  const { assembler, taskState: state, round } = options;
  const frame = new PresentationFrame({ blocks: assembler, present: options.schedulePresentation, frameMs: options.presentationFrameMs });
  let note: string | undefined;
  let streamError: ProviderError | undefined;
  let stopReason: string | undefined;
  const { iterator } = options.opened;
  /** One chunk to its handler; false stops reading. */
  const handle = (chunk: Chunk): boolean => {
    switch (chunk.type) {
      case "usage":
        options.usage.add(chunk);
        break;
      case "text":
        frame.changed(assembler.pushText(chunk.text));
        break;
      case "reasoning":
        frame.changed(assembler.pushReasoning(chunk));
        break;
      case "tool_call":
        frame.changed(assembler.pushToolCall(chunk));
        break;
      case "stop":
        stopReason = chunk.reason;
        break;
    }
    if (state.abort) return false;
    if (round.didRejectTool) {
      note = responses.interruptedByUserFeedback;
      return false;
    }
    if (round.didAlreadyUseTool && !options.parallelTools) {
      note = responses.interruptedByToolUse;
      return false;
    }
    return true;
  };
  const first = options.opened.first;
  let open = first.done !== true;
  try {
    if (first.done !== true && handle(first.value)) {
      // Push mode (issue 18): the chunks come to `handle` with no wait per chunk here.
      await forEachChunk(iterator, handle);
      open = false; // ended, or left by forEachChunk when `handle` stopped it
    }
  } catch (error) {
    if (!state.abort) {
      streamError = error instanceof ProviderError ? error : toProviderError(error, { providerName: options.providerName });
      if (streamError.kind === "aborted") streamError = undefined;
    }
  } finally {
    frame.stop();
    // Leaving early closes the HTTP stream instead of draining it.
    if (open) void iterator.return?.().catch(() => undefined);
    // An answer left before its end is billed all the same: what the provider had reported counts.
    const unreported = iterator.unreportedUsage?.();
    if (unreported !== undefined) options.usage.add(unreported);
  }
  return { rawText: assembler.rawText(), ...(note ? { note } : {}), ...(streamError ? { streamError } : {}), ...(stopReason === undefined ? {} : { stopReason }) };
}
