/**
 * What the sandbox must hide or protect inside a workspace, found by walking
 * it whole (no limit on the number of entries): paths the ignore file hides
 * (not descended into), credential files (`.env`, `.env.local` …), and rules
 * files below the root (a nested AGENTS.md). Folder listings are kept with
 * the folder's modification time, so a later walk reads again only the
 * folders whose entries changed.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { isCredentialPath } from "../security/sensitive-paths.js";
import type { WorkspaceGuard } from "./workspace-guard.js";

interface Listing {
  stamp: number;
  entries: Array<{ name: string; folder: boolean }>;
}

export interface ScanResult {
  /** Ignored paths and credential files: the sandbox shows them empty. */
  hidden: string[];
  /** For each folder holding hidden entries, its other entries (the sandbox may rebuild the folder from them). */
  visibleBeside: Map<string, string[]>;
  /** Rules files below the workspace root (the root's own are protected by name). */
  nestedRules: string[];
}

const nestedRulesNames = new Set(["AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"]);
/** Folders that are never read for this: git's own (handled apart), and the placeholders of other processes are empty anyway. */
const skipped = new Set([".git"]);

export class WorkspaceScan {
  private readonly listings = new Map<string, Listing>();

  constructor(
    private readonly guard: WorkspaceGuard,
    private readonly userConfigDir: string,
  ) {}

  private list(folder: string): Listing["entries"] | undefined {
    let stamp: number;
    try {
      stamp = statSync(folder).mtimeMs;
    } catch {
      this.listings.delete(folder);
      return undefined;
    }
    const known = this.listings.get(folder);
    if (known?.stamp === stamp) return known.entries;
    let entries: Listing["entries"];
    try {
      entries = readdirSync(folder, { withFileTypes: true }).map((entry) => ({ name: entry.name, folder: entry.isDirectory() }));
    } catch {
      return undefined;
    }
    this.listings.set(folder, { stamp, entries });
    return entries;
  }

  scan(): ScanResult {
    const guard = this.guard.snapshot();
    const result: ScanResult = { hidden: [], visibleBeside: new Map(), nestedRules: [] };
    const visit = (folder: string, depth: number): void => {
      const entries = this.list(folder);
      if (entries === undefined) return;
      const visible: string[] = [];
      let hidden = 0;
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (depth === 0 && skipped.has(entry.name)) {
          visible.push(path);
          continue;
        }
        if (guard.isIgnoredEntry(path, entry.folder) || (!entry.folder && isCredentialPath(path, this.userConfigDir))) {
          result.hidden.push(path);
          hidden += 1;
          continue;
        }
        visible.push(path);
        if (entry.folder) visit(path, depth + 1);
        else if (depth > 0 && nestedRulesNames.has(basename(path))) result.nestedRules.push(path);
      }
      if (hidden > 0) result.visibleBeside.set(folder, visible);
    };
    visit(guard.root, 0);
    return result;
  }
}
