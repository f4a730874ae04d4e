/** The checkpoint routes of the API: a task's checkpoints, a diff between two, a restore, and an undo of the last step. */
import { CheckpointTracker } from "../checkpoints/tracker.js";
import { findTaskCheckpoint, restoreCheckpoint } from "../checkpoints/restore.js";
import { describeUndo, undoLastStep } from "../checkpoints/undo.js";
import type { Route } from "./api-routes.js";
import { optionalText, requiredText } from "./api-routes.js";
import { RequestError, type TaskRegistry } from "./task-registry.js";

const taskPath = (rest: string): RegExp => new RegExp(`^/api/tasks/([^/]+)${rest}$`);

async function trackerOf(registry: TaskRegistry, taskId: string): Promise<CheckpointTracker> {
  const { meta } = await registry.store.load(taskId);
  const tracker = new CheckpointTracker({ workspace: meta.workspace, dataDir: registry.defaults.dataDir });
  await tracker.init();
  return tracker;
}

async function checkpointOf(tracker: CheckpointTracker, taskId: string, reference: string): Promise<string> {
  try {
    return (await findTaskCheckpoint(tracker, taskId, reference)).hash;
  } catch (error) {
    throw new RequestError(404, error instanceof Error ? error.message : String(error));
  }
}

/** A unified diff between two of a task's checkpoints (null `from`: its first; null `to`: the workspace now); 404 without checkpoints. */
export async function taskPatch(registry: TaskRegistry, taskId: string, from: string | null = null, to: string | null = null): Promise<string> {
  const tracker = await trackerOf(registry, taskId);
  const start = from !== null ? await checkpointOf(tracker, taskId, from) : (await tracker.list({ taskId })).at(-1)?.hash;
  if (start === undefined) throw new RequestError(404, `task ${taskId} has no checkpoints to compare with`);
  const end = to === null ? undefined : await checkpointOf(tracker, taskId, to);
  return (await tracker.diff(start, end)).patch;
}

export const checkpointRoutes: Route[] = [
  {
    method: "GET",
    pattern: taskPath("/checkpoints"),
    handle: async ({ registry, params }) => {
      const taskId = await registry.resolve(params[0]!);
      const checkpoints = await (await trackerOf(registry, taskId)).list({ taskId });
      return { status: 200, body: { checkpoints } };
    },
  },
  {
    method: "GET",
    pattern: taskPath("/diff"),
    handle: async ({ registry, params, url }) => {
      const taskId = await registry.resolve(params[0]!);
      const patch = await taskPatch(registry, taskId, url.searchParams.get("from"), url.searchParams.get("to"));
      return { status: 200, text: patch, type: "text/plain; charset=utf-8" };
    },
  },
  {
    method: "POST",
    pattern: taskPath("/restore"),
    handle: async ({ registry, params, body }) => {
      const taskId = await registry.resolve(params[0]!);
      const input = await body();
      const checkpoint = requiredText(input, "checkpoint");
      const mode = optionalText(input, "mode") ?? "both";
      if (mode !== "files" && mode !== "task" && mode !== "both") throw new RequestError(400, `mode must be "files", "task" or "both"`);
      // Nothing is restored under a running task: it is stopped first (and can be resumed after).
      await registry.abort(taskId);
      try {
        const outcome = await restoreCheckpoint({ dataDir: registry.defaults.dataDir, taskId, checkpoint, mode });
        return { status: 200, body: outcome };
      } catch (error) {
        throw new RequestError(409, error instanceof Error ? error.message : String(error));
      } finally {
        registry.logChanged(taskId);
      }
    },
  },
  {
    method: "POST",
    pattern: taskPath("/undo"),
    handle: async ({ registry, params }) => {
      const taskId = await registry.resolve(params[0]!);
      // As a restore: a running task is stopped first (a message resumes it).
      await registry.abort(taskId);
      const tracker = await trackerOf(registry, taskId);
      const done = registry.undoPointsOf(taskId);
      try {
        const undone = await undoLastStep({
          tracker,
          taskId,
          undone: done,
          restoreFiles: (hash) => restoreCheckpoint({ dataDir: registry.defaults.dataDir, taskId, checkpoint: hash, mode: "files" }),
        });
        if (undone.kind === "nothing") return { status: 200, body: { undone: false, text: undone.text } };
        done.push(undone.point);
        return { status: 200, body: { undone: true, text: describeUndo(undone.outcome), outcome: undone.outcome } };
      } catch (error) {
        throw new RequestError(409, error instanceof Error ? error.message : String(error));
      } finally {
        registry.logChanged(taskId);
      }
    },
  },
];
