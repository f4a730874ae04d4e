import { CheckpointTracker } from "../checkpoints/tracker.js";
import { createCheckpointGate } from "../checkpoints/gate.js";
import type { ConversationPosition } from "../store/types.js";
import type { CheckpointMeta } from "../task/contracts/message-meta.js";
import type { CheckpointGate } from "../task/contracts/seams.js";

/**
 * The task's checkpoints: a shadow git repository of the workspace, each
 * checkpoint shown as `checkpoint_created` with its hash. Any failure (no git,
 * the home folder, a slow snapshot) turns them off for the task with a warning.
 */
export function createCheckpoints(options: {
  workspace: string;
  dataDir: string;
  taskId: string;
  position: () => ConversationPosition;
  say: (type: "checkpoint_created" | "warning", text: string, meta?: CheckpointMeta) => void;
}): CheckpointGate {
  return createCheckpointGate({
    tracker: new CheckpointTracker({ workspace: options.workspace, dataDir: options.dataDir }),
    taskId: options.taskId,
    position: options.position,
    onCreated: (hash, reason) => options.say("checkpoint_created", hash, { hash, reason }),
    onWarning: (text) => options.say("warning", text),
  });
}
