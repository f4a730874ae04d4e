/**
 * When the terminal UI calls the user back (notifications.ts): a question or
 * approval waiting for an answer (the completion's "Done?" too), and a step
 * that ended without one (a failure, an interruption).
 */
import type { AskMessage } from "../../task/contracts/messages.js";
import type { AttentionNotifier } from "./notifications.js";
import type { TranscriptSnapshot } from "./transcript.js";

function askText(ask: AskMessage): string {
  switch (ask.ask) {
    case "completion_result":
      return "the task is done: accept it or say what to change";
    case "elicitation":
      return `an MCP server asks: ${ask.text.split("\n")[0] ?? ""}`;
    case "followup":
    case "plan_mode_respond":
      return `a question for you: ${ask.text.split("\n")[0] ?? ""}`;
    default:
      return "an action waits for your approval";
  }
}

/** Watches the UI's transcript and the controller's state; returns the function that stops watching. */
export function watchAttention(options: { notifier: AttentionNotifier; subscribe: (listener: () => void) => () => void; snapshot: () => TranscriptSnapshot; busy: () => boolean }): () => void {
  let wasBusy = options.busy();
  let steps = 0;
  return options.subscribe(() => {
    const { pendingAsk } = options.snapshot();
    const busy = options.busy();
    if (pendingAsk !== undefined) options.notifier.need(`ask:${pendingAsk.id}`, askText(pendingAsk));
    else if (wasBusy && !busy) {
      steps += 1;
      options.notifier.need(`stopped:${steps}`, "cairn stopped and waits for you");
    }
    wasBusy = busy;
  });
}
