/**
 * The work of writing subagents, each in its own worktree (or copy), from the
 * child's end until the parent merges it, keeps it as a patch or discards it.
 * A worktree can be the only copy of a child's work: a conflict keeps it as a
 * patch file in the data folder before the worktree goes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SubagentMergeResult } from "../../task/contracts/subagents.js";
import type { IsolatedWorkspace } from "./subagent-workspace.js";

export class ChildChanges {
  private readonly byChild = new Map<string, { workspace: IsolatedWorkspace; diff: string }>();

  /** `patchFolder`: where kept patches go (one per child, named after it). */
  constructor(private readonly patchFolder: string) {}

  /** The child's worktree, and its changes once it ended. */
  set(subagentId: string, entry: { workspace: IsolatedWorkspace; diff: string }): void {
    this.byChild.set(subagentId, entry);
  }

  async merge(subagentId: string): Promise<SubagentMergeResult> {
    const found = this.byChild.get(subagentId);
    if (found === undefined) return { kind: "empty" };
    const result = await found.workspace.merge(found.diff);
    if (result.kind !== "conflict") {
      await this.discard(subagentId); // merged: the worktree has served
      return result;
    }
    const patch = await this.keep(subagentId);
    return patch === undefined ? result : { kind: "conflict", message: `${result.message}\n${keptPatchNote(patch)}` };
  }

  /** Writes the child's changes to a patch file that outlives the session; undefined when it changed nothing. */
  async keep(subagentId: string): Promise<string | undefined> {
    const found = this.byChild.get(subagentId);
    if (found === undefined || found.diff.trim() === "") {
      await this.discard(subagentId);
      return undefined;
    }
    const patch = join(this.patchFolder, `${subagentId}.patch`);
    await mkdir(this.patchFolder, { recursive: true });
    await writeFile(patch, found.diff);
    await this.discard(subagentId);
    return patch;
  }

  async discard(subagentId: string): Promise<void> {
    const found = this.byChild.get(subagentId);
    this.byChild.delete(subagentId);
    await found?.workspace.remove();
  }

  async discardAll(): Promise<void> {
    for (const subagentId of [...this.byChild.keys()]) await this.discard(subagentId);
  }
}

/** Where a child's unmerged work was kept, and how to use it. */
export function keptPatchNote(patch: string): string {
  return `Its changes are kept in ${patch}; apply them once the workspace allows with: git apply ${patch}`;
}
