/** search_files: a regular-expression search with one line of context, capped at 300 matches. */
import { stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { approvePath, checkIgnored, readRefusals } from "../path-access.js";
import { describeError } from "../file-io.js";
import { findRipgrep } from "../search/find-ripgrep.js";
import { javascriptSearch } from "../search/javascript-search.js";
import { ripgrepSearch } from "../search/ripgrep-search.js";
import { SearchPatternError, type SearchOutcome } from "../search/search-types.js";
import { invalidParameter, success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export const searchResultLimit = 300;
const maximumLineCharacters = 400;

export function formatSearchOutcome(outcome: SearchOutcome, folder: string, isLeftOut: (path: string) => boolean): string {
  const sections: string[] = [];
  let shown = 0;
  // ripgrep searches files in parallel: sort so the same search reads the same.
  const files = [...outcome.files].sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  for (const file of files) {
    if (isLeftOut(file.path)) continue;
    const name = relative(folder, file.path).split(sep).join("/") || file.path;
    const lines: string[] = [];
    let previous: number | undefined;
    for (const line of file.lines) {
      if (previous !== undefined && line.line > previous + 1) lines.push("--");
      const text = line.text.length > maximumLineCharacters ? `${line.text.slice(0, maximumLineCharacters)}…` : line.text;
      lines.push(`${line.line}${line.isMatch ? ":" : "-"} ${text}`);
      if (line.isMatch) shown++;
      previous = line.line;
    }
    sections.push(`${name}\n${lines.join("\n")}`);
  }
  if (shown === 0) return "No matches found.";
  const header = `Found ${shown} match${shown === 1 ? "" : "es"}${outcome.truncated ? ` (stopped at ${searchResultLimit}; narrow the regex or the path to see the rest)` : ""}. Lines are shown as "line: text" for matches and "line- text" for context.`;
  return `${header}\n\n${sections.join("\n\n")}`;
}

export const searchFilesTool: ToolDefinition = {
  name: "search_files",
  description:
    "Search the files under a folder for a regular expression (Rust regex syntax), showing each match with a line " +
    "of context. Files ignored by .gitignore are skipped, and so is every file read_file refuses (ignored, credentials); " +
    "at most 300 matches are shown.",
  parameters: [
    { name: "path", required: true, description: "Folder to search, relative to the workspace.", usage: "Folder path here" },
    { name: "regex", required: true, description: "The regular expression to search for.", usage: "Your regex pattern here" },
    { name: "file_pattern", required: false, description: "Glob limiting the files searched, e.g. *.ts.", usage: "file pattern here (optional)" },
  ],
  readOnly: true,
  describePartial(params) {
    return { text: `Search ${params["path"] ?? ""} for ${params["regex"] ?? ""}`, meta: { tool: "search_files", path: params["path"] ?? "", regex: params["regex"] ?? "" } };
  },
  async execute(params, runtime) {
    const checked = checkIgnored(runtime, params["path"] ?? "");
    if (!checked.ok) return checked.outcome;
    const regex = params["regex"] ?? "";
    const approved = await approvePath({ runtime, path: checked.path, access: "read", text: `Search ${checked.path.display} for /${regex}/`, meta: { tool: "search_files" } });
    if (!approved.ok) return approved.outcome;
    const folder = approved.path;
    try {
      await stat(folder.real);
    } catch {
      return toolError(`there is no folder at ${folder.display}.`);
    }
    const request = {
      folder: folder.real,
      regex,
      limit: searchResultLimit,
      signal: runtime.context.signal,
      ...(params["file_pattern"] !== undefined ? { filePattern: params["file_pattern"] } : {}),
    };
    let outcome: SearchOutcome;
    try {
      const binary = findRipgrep();
      if (binary === undefined) {
        outcome = await javascriptSearch(request, runtime.guard);
      } else {
        try {
          outcome = await ripgrepSearch(binary, request);
        } catch (error) {
          // Look-around and backreferences need ripgrep's PCRE2 engine; ripgrep says so in its error.
          if (!(error instanceof SearchPatternError) || !error.message.includes("--pcre2")) throw error;
          outcome = await ripgrepSearch(binary, { ...request, pcre2: true });
        }
      }
    } catch (error) {
      if (error instanceof SearchPatternError) {
        return invalidParameter({ tool: "search_files", parameter: "regex", problem: `it is not a valid regular expression: ${error.message}` });
      }
      return toolError(`the search failed: ${describeError(error)}`);
    }
    // Exactly what read_file refuses stays out, by read_file's own checks (one checker for the whole
    // search). Nothing says a file was left out: that it matched would tell the model something about a
    // secret's content.
    const refusal = readRefusals(runtime);
    const leftOut = new Set<string>();
    for (const file of outcome.files) {
      if ((await refusal(file.path)) !== undefined) leftOut.add(file.path);
    }
    const text = formatSearchOutcome(outcome, folder.real, (path) => leftOut.has(path));
    return withApprovalFeedback(success(text), approved.feedback);
  },
};
