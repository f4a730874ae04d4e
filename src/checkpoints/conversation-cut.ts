import { metaOf } from "../task/contracts/message-meta.js";
import type { ConversationPosition, LoadedTask } from "../store/types.js";
import type { Checkpoint } from "./tracker.js";

/**
 * Where to cut a task's conversation back to for a checkpoint: the UI keeps every
 * message up to and including the checkpoint's own `checkpoint_created` message (found
 * by `meta.hash`), and the API history keeps the length recorded in the checkpoint.
 */
export function conversationCutFor(loaded: LoadedTask, checkpoint: Checkpoint): ConversationPosition {
  if (checkpoint.apiHistoryLength === undefined) {
    throw new Error(`checkpoint ${checkpoint.hash.slice(0, 8)} does not record where the conversation stood; restore the files only (--files)`);
  }
  const announced = loaded.uiMessages.findIndex((message) => metaOf(message, "checkpoint_created")?.hash === checkpoint.hash);
  const uiMessageCount = announced !== -1 ? announced + 1 : checkpoint.uiMessageCount;
  if (uiMessageCount === undefined) {
    throw new Error(`checkpoint ${checkpoint.hash.slice(0, 8)} does not record where the conversation stood; restore the files only (--files)`);
  }
  return {
    apiHistoryLength: Math.min(checkpoint.apiHistoryLength, loaded.apiHistory.length),
    uiMessageCount: Math.min(uiMessageCount, loaded.uiMessages.length),
  };
}
