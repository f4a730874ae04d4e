/**
 * Plan or act for a task of `cairn serve` (docs/server.md, `POST /api/tasks/:id/mode`). A switch is said as an
 * `info` message whose meta is `{mode, by}`: every client sees it, and the task's log keeps it, so a resumed task
 * (after a stop or a server restart) starts in the mode it was left in.
 */
import { modelSwitchOf, modeSwitchOf } from "../task/contracts/message-meta.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { Mode } from "../task/contracts/tool-executor.js";
import { RequestError } from "./task-registry.js";

/** A mode from a request's body, or a 400 saying which ones there are. */
export function modeOf(value: unknown): Mode {
  if (value === "plan" || value === "act") return value;
  throw new RequestError(400, `mode must be "plan" (read-only tools: the model explores and plans) or "act" (the model changes things), not ${JSON.stringify(value ?? null)}`);
}

/** The mode the task's log last switched to (undefined when it never switched). */
export function loggedMode(messages: readonly UiMessage[]): Mode | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const found = modeSwitchOf(messages[index]!);
    if (found !== undefined) return found.mode;
  }
  return undefined;
}

/** The model a client last chose in the task's log for its next run (undefined when none did). */
export function loggedModel(messages: readonly UiMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const found = modelSwitchOf(messages[index]!);
    if (found !== undefined) return found.model;
  }
  return undefined;
}

/** What clients read when a client chooses the model (as the local UI's `/model` does, it is used from the task's next run). */
export function modelSwitchText(model: string, by: string, current: string | undefined): string {
  const now = current === undefined ? "" : `; the run going on now keeps ${current}`;
  return `Model for this task from its next run: ${model} (chosen by ${by}${now}).`;
}

/** What clients read when the mode changes. */
export function modeSwitchText(mode: Mode, by: string): string {
  const what = mode === "plan" ? "Plan mode: the model explores and plans with read-only tools and changes nothing" : "Act mode: the model may change files and run commands (as the permission rules allow)";
  return `${what} (switched by ${by}; its next request uses it).`;
}
