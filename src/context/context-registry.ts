import type { ContextManager } from "./context-manager.js";

/**
 * The context manager of each live Task, for surfaces that only hold the Task (the
 * TUI's slash commands): keyed weakly, so a finished Task takes its manager with it.
 */
const managers = new WeakMap<object, ContextManager>();

export function registerContextManager(task: object, manager: ContextManager): void {
  managers.set(task, manager);
}

export function contextManagerOf(task: object | undefined): ContextManager | undefined {
  return task === undefined ? undefined : managers.get(task);
}
