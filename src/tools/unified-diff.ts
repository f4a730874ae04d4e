/**
 * A unified diff for the approval prompt and the model. Common leading and
 * trailing lines are cut off before diffing, so a small edit to a large file
 * costs little; a diff that takes too long is replaced by a summary.
 */
import { formatPatch, structuredPatch } from "diff";

const contextLines = 3;
const maximumDiffMilliseconds = 1500;

export function unifiedDiff(options: { path: string; before: string; after: string }): string {
  const { path, before, after } = options;
  if (before === after) return "";
  const oldLines = before.split("\n");
  const newLines = after.split("\n");
  let prefix = 0;
  const shortest = Math.min(oldLines.length, newLines.length);
  while (prefix < shortest && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) {
    suffix++;
  }
  const skipStart = Math.max(0, prefix - contextLines);
  const skipEnd = Math.max(0, suffix - contextLines);
  // Lines cut off after the middle follow it, so its last line ends with a newline on both
  // sides; without one, `\ No newline at end of file` would be claimed of a file that has one.
  const cutEnd = skipEnd > 0 ? "\n" : "";
  const oldMiddle = oldLines.slice(skipStart, oldLines.length - skipEnd).join("\n") + cutEnd;
  const newMiddle = newLines.slice(skipStart, newLines.length - skipEnd).join("\n") + cutEnd;
  const patch = structuredPatch(path, path, oldMiddle, newMiddle, undefined, undefined, {
    context: contextLines,
    timeout: maximumDiffMilliseconds,
  });
  if (patch === undefined) {
    return `--- ${path}\n+++ ${path}\n(the change is too large to show as a diff: ${oldLines.length} lines before, ${newLines.length} after)\n`;
  }
  for (const hunk of patch.hunks) {
    hunk.oldStart += skipStart;
    hunk.newStart += skipStart;
  }
  return formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
}

/** Counts of added and removed lines in a unified diff. */
export function diffStat(patch: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of patch.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return { added, removed };
}
