/**
 * `@path` imports inside rule files (Claude Code's memory syntax): each
 * imported file is added after the rule that names it, up to five levels
 * deep, each file once. Imports inside code spans and fences are text.
 */
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

const maxDepth = 5;
const maxImportBytes = 100_000;

function importTargets(text: string): string[] {
  const targets: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const withoutSpans = line.replace(/`[^`]*`/g, "");
    for (const match of withoutSpans.matchAll(/(?:^|\s)@((?:~\/|\.{0,2}\/)?[\w.\-/]+)/g)) {
      const target = (match[1] ?? "").replace(/[.,;:]+$/, "");
      if (target.includes("/") || target.includes(".")) targets.push(target);
    }
  }
  return targets;
}

function resolveTarget(target: string, baseDir: string): string {
  if (target.startsWith("~/")) return join(homedir(), target.slice(2));
  return isAbsolute(target) ? target : resolve(baseDir, target);
}

export interface ImportedFile {
  path: string;
  text: string;
}

/** The files `text` (read from `file`) imports, recursively, in order. */
export async function resolveImports(text: string, file: string, seen: Set<string> = new Set([file]), depth = 0): Promise<ImportedFile[]> {
  if (depth >= maxDepth) return [];
  const imported: ImportedFile[] = [];
  for (const target of importTargets(text)) {
    const path = resolveTarget(target, dirname(file));
    if (seen.has(path)) continue;
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    seen.add(path);
    const content = await readFile(path, "utf8");
    const body = content.length > maxImportBytes ? `${content.slice(0, maxImportBytes)}\n[truncated]` : content;
    imported.push({ path, text: body });
    imported.push(...(await resolveImports(body, path, seen, depth + 1)));
  }
  return imported;
}
