/**
 * How the sandbox hides the workspace's ignored and credential files with few
 * mounts: bubblewrap's cost grows with the square of the number of mounts
 * (about a second at 300 here), so a folder holding more hidden entries than
 * other ones is rebuilt instead (an empty read-only folder with its other
 * entries bound back in: nothing hidden shows, existing files stay writable,
 * only new entries directly in that folder cannot be made). Past the budget,
 * no partial hiding: the sandbox refuses to start, saying what to change.
 */
import { relative } from "node:path";
import { SandboxUnavailableError } from "../security/sandbox.js";
import type { ScanResult } from "./workspace-scan.js";

export interface HidingPlan {
  /** Entries hidden one by one. */
  hidden: string[];
  /** Folders rebuilt from their visible entries. */
  rebuilt: Array<{ folder: string; visible: string[] }>;
}

/** Mounts the hiding may take. */
export const hidingBudget = 96;

export function planHiding(found: Pick<ScanResult, "hidden" | "visibleBeside">, root: string, budget = hidingBudget): HidingPlan {
  const byFolder = new Map<string, string[]>();
  for (const path of found.hidden) {
    const folder = path.slice(0, path.lastIndexOf("/")) || "/";
    const list = byFolder.get(folder) ?? [];
    list.push(path);
    byFolder.set(folder, list);
  }
  const plan: HidingPlan = { hidden: [], rebuilt: [] };
  let mounts = 0;
  for (const [folder, hidden] of byFolder) {
    const visible = found.visibleBeside.get(folder) ?? [];
    // The workspace itself is never rebuilt: new files must stay possible at its top.
    if (folder !== root && visible.length + 1 < hidden.length) {
      plan.rebuilt.push({ folder, visible });
      mounts += visible.length + 1;
    } else {
      plan.hidden.push(...hidden);
      mounts += hidden.length;
    }
  }
  if (mounts > budget) {
    const busiest = [...byFolder.entries()]
      .sort((left, right) => right[1].length - left[1].length)
      .slice(0, 3)
      .map(([folder, hidden]) => `${relative(root, folder) || "."} (${hidden.length})`);
    throw new SandboxUnavailableError(
      `the ignore file and credential files hide ${found.hidden.length} entries spread over ${byFolder.size} folders (most in ${busiest.join(", ")}): more than the sandbox can hide one by one. ` +
        "Ignore whole folders rather than files in many places (a line like `data/`), or run with --sandbox off",
    );
  }
  return plan;
}
