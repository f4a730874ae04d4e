/** list_files: the files and folders under a path, sorted, ignore files honoured, capped. */
import { stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { approvePath, checkIgnored, readRefusals } from "../path-access.js";
import { success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";
import { walkFiles } from "../walk-files.js";

export const listFilesLimit = 200;

export const listFilesTool: ToolDefinition = {
  name: "list_files",
  description:
    "List the files and folders in a folder (folders end with /). With recursive=true the whole tree is listed, " +
    "breadth first. Files ignored by .gitignore are left out; files read_file refuses are marked; at most 200 entries are shown.",
  parameters: [
    { name: "path", required: true, description: "Folder to list, relative to the workspace.", usage: "Folder path here" },
    { name: "recursive", required: false, type: "boolean", description: "true to list the whole tree, false (default) for the top level only.", usage: "true or false" },
  ],
  readOnly: true,
  describePartial(params) {
    return { text: `List ${params["path"] ?? ""}`, meta: { tool: "list_files", path: params["path"] ?? "" } };
  },
  async execute(params, runtime) {
    const checked = checkIgnored(runtime, params["path"] ?? "");
    if (!checked.ok) return checked.outcome;
    const recursive = (params["recursive"] ?? "").trim().toLowerCase() === "true";
    const approved = await approvePath({ runtime, path: checked.path, access: "read", text: `List ${checked.path.display}${recursive ? " (recursive)" : ""}`, meta: { tool: "list_files" } });
    if (!approved.ok) return approved.outcome;
    const folder = approved.path;
    try {
      if (!(await stat(folder.real)).isDirectory()) return toolError(`${folder.display} is a file, not a folder. Use read_file to read it.`);
    } catch {
      return toolError(`there is no folder at ${folder.display}.`);
    }
    // Names only: what read_file refuses (credentials, a Read rule) is marked, and such a folder is not descended into.
    const refusal = readRefusals(runtime);
    const refuses = async (absolute: string): Promise<boolean> => (await refusal(absolute)) !== undefined;
    const walked = await walkFiles({ root: folder.real, recursive, limit: listFilesLimit, guard: runtime.guard, signal: runtime.context.signal, refuses });
    const lines = walked.entries
      .map((entry) => {
        const name = relative(folder.real, entry.absolute).split(sep).join("/");
        const mark = entry.ignored ? "  [blocked by .cairnignore]" : entry.refused === true ? "  [read_file refuses it: credentials or a Read rule]" : "";
        return `${name}${entry.isDirectory ? "/" : ""}${mark}`;
      })
      .sort();
    let text = lines.length === 0 ? `${folder.display} is empty.` : lines.join("\n");
    if (walked.truncated) {
      text += `\n\n[Only the first ${listFilesLimit} entries are shown. List a subfolder, or use search_files, to see more.]`;
    }
    return withApprovalFeedback(success(text), approved.feedback);
  },
};
