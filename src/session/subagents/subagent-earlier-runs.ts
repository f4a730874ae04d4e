/**
 * The children an earlier run of a resumed parent started (issue #17, resume),
 * found from the links the parent's own messages hold (`info` messages with a
 * `SubagentLinkMeta`): a new child's id is numbered on from theirs, and a child
 * asked for again (same agent type and prompt) goes on from its own log.
 */
import type { TaskStore } from "../../store/task-store.js";
import type { LoadedTask } from "../../store/types.js";
import { metaOf, type SubagentLinkMeta } from "../../task/contracts/message-meta.js";
import type { UiMessage } from "../../task/contracts/messages.js";

export type PreviousChild = { subagentId: string; taskId: string; loaded: LoadedTask };

function linkOf(message: UiMessage): SubagentLinkMeta | undefined {
  const link = metaOf(message, "info");
  return link !== undefined && "childTaskId" in link ? link : undefined;
}

export class EarlierChildren {
  /** Children not taken yet, by agent type and prompt. */
  private found: Promise<Map<string, { subagentId: string; taskId: string }>> | undefined;

  constructor(private readonly options: { messages: ReadonlyArray<UiMessage>; store: TaskStore }) {}

  /** The highest number an earlier child's id ends with (`explore-3` is 3), 0 when there were none. */
  highestNumber(): number {
    let highest = 0;
    for (const message of this.options.messages) {
      const id = linkOf(message)?.subagentId;
      const number = id !== undefined ? Number(/-(\d+)$/.exec(id)?.[1] ?? 0) : 0;
      highest = Math.max(highest, number);
    }
    return highest;
  }

  /** The child an earlier run started with the same agent type and prompt; each is taken once. */
  async take(request: { agent: string; prompt: string }): Promise<PreviousChild | undefined> {
    // One lookup shared by children that start at the same moment.
    this.found ??= this.load();
    const previous = await this.found;
    const key = `${request.agent}\0${request.prompt}`;
    const found = previous.get(key);
    if (found === undefined) return undefined;
    previous.delete(key);
    const loaded = await this.options.store.load(found.taskId).catch(() => undefined);
    return loaded === undefined ? undefined : { ...found, loaded };
  }

  private async load(): Promise<Map<string, { subagentId: string; taskId: string }>> {
    const found = new Map<string, { subagentId: string; taskId: string }>();
    for (const message of this.options.messages) {
      const link = linkOf(message);
      if (link === undefined) continue;
      const loaded = await this.options.store.load(link.childTaskId).catch(() => undefined);
      if (loaded !== undefined) found.set(`${link.agent}\0${loaded.meta.task}`, { subagentId: link.subagentId, taskId: link.childTaskId });
    }
    return found;
  }
}
