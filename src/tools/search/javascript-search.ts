/** The search used when no ripgrep binary exists: JS regular expressions over the walked tree. */
import { readFile, stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { looksBinary } from "../file-io.js";
import type { WorkspaceGuard } from "../workspace-guard.js";
import { walkFiles } from "../walk-files.js";
import { matchesGlob } from "./glob-pattern.js";
import { SearchPatternError, type SearchFileResult, type SearchOutcome, type SearchRequest } from "./search-types.js";

const maximumFiles = 50_000;
const maximumFileBytes = 2 * 1024 * 1024;

export async function javascriptSearch(request: SearchRequest, guard: WorkspaceGuard): Promise<SearchOutcome> {
  let expression: RegExp;
  try {
    expression = new RegExp(request.regex);
  } catch (error) {
    throw new SearchPatternError(error instanceof Error ? error.message : String(error));
  }
  const walked = await walkFiles({ root: request.folder, recursive: true, limit: maximumFiles, guard, signal: request.signal });
  const files: SearchFileResult[] = [];
  let matchCount = 0;
  for (const entry of walked.entries) {
    if (entry.isDirectory || entry.ignored || request.signal.aborted) continue;
    const relativePath = relative(request.folder, entry.absolute).split(sep).join("/");
    // Like ripgrep without --hidden: dot-files and dot-folders are not searched.
    if (relativePath.split("/").some((segment) => segment.startsWith("."))) continue;
    if (request.filePattern !== undefined && request.filePattern.trim() !== "" && !matchesGlob(request.filePattern.trim(), relativePath)) continue;
    let content: Buffer;
    try {
      if ((await stat(entry.absolute)).size > maximumFileBytes) continue;
      content = await readFile(entry.absolute);
    } catch {
      continue;
    }
    if (looksBinary(entry.absolute, content)) continue;
    const lines = content.toString("utf8").split(/\r?\n/);
    const kept = new Map<number, boolean>();
    for (const [index, text] of lines.entries()) {
      if (!expression.test(text)) continue;
      if (matchCount >= request.limit) return { files, matchCount, truncated: true };
      matchCount++;
      kept.set(index, true);
      if (index > 0 && !kept.has(index - 1)) kept.set(index - 1, false);
      if (index + 1 < lines.length && !kept.has(index + 1)) kept.set(index + 1, false);
    }
    if (kept.size === 0) continue;
    const numbers = [...kept.keys()].sort((left, right) => left - right);
    files.push({ path: entry.absolute, lines: numbers.map((index) => ({ line: index + 1, text: lines[index] ?? "", isMatch: kept.get(index) === true })) });
  }
  return { files, matchCount, truncated: false };
}
