/**
 * Cuts the model's `diff` parameter into SEARCH/REPLACE blocks. The markers
 * are read tolerantly: `------- SEARCH` or `<<<<<<< SEARCH`, `=======`,
 * `+++++++ REPLACE` or `>>>>>>> REPLACE`, each with three or more marker characters.
 */

export interface SearchReplaceBlock {
  /** Whole lines, each ending in "\n" (empty for an empty SEARCH). */
  search: string;
  replace: string;
}

export interface ParsedDiff {
  blocks: SearchReplaceBlock[];
  /** A block that started but has not reached its REPLACE marker (while streaming, or a malformed diff). */
  incomplete?: { search: string; replace: string; stage: "search" | "replace" };
}

const searchMarker = /^\s*(?:-{3,}|<{3,})\s*SEARCH\s*>?\s*$/;
const separatorMarker = /^\s*={3,}\s*$/;
const replaceMarker = /^\s*(?:\+{3,}|>{3,})\s*REPLACE\s*<?\s*$/;

/**
 * `final`: the diff is complete (not still streaming), so a last block that has
 * its ======= separator but no closing REPLACE marker ends at the end of the
 * diff. Claude-family models often omit that marker, and Cline accepts it.
 */
export function parseSearchReplace(diff: string, options: { final?: boolean } = {}): ParsedDiff {
  const lines = diff.replace(/\r\n/g, "\n").split("\n");
  // A trailing newline does not start another (empty) line.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const blocks: SearchReplaceBlock[] = [];
  let stage: "outside" | "search" | "replace" = "outside";
  let search: string[] = [];
  let replace: string[] = [];
  for (const line of lines) {
    if (stage === "outside") {
      if (searchMarker.test(line)) {
        stage = "search";
        search = [];
        replace = [];
      }
      continue;
    }
    if (stage === "search") {
      if (separatorMarker.test(line)) stage = "replace";
      else search.push(line);
      continue;
    }
    if (replaceMarker.test(line)) {
      blocks.push({ search: joinLines(search), replace: joinLines(replace) });
      stage = "outside";
    } else {
      replace.push(line);
    }
  }
  if (stage === "outside") return { blocks };
  if (stage === "replace" && options.final === true) return { blocks: [...blocks, { search: joinLines(search), replace: joinLines(replace) }] };
  return { blocks, incomplete: { search: joinLines(search), replace: joinLines(replace), stage } };
}

function joinLines(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join("");
}

/** Why a diff parameter holds no usable block, for the model. */
export function describeMalformedDiff(parsed: ParsedDiff): string | undefined {
  if (parsed.incomplete !== undefined) {
    return parsed.incomplete.stage === "search" ? "a SEARCH block has no ======= separator and no +++++++ REPLACE marker." : "a block is missing its closing +++++++ REPLACE marker.";
  }
  if (parsed.blocks.length === 0) {
    return "no SEARCH/REPLACE block was found. Each block is:\n------- SEARCH\n[exact lines to find]\n=======\n[lines to put instead]\n+++++++ REPLACE";
  }
  return undefined;
}
