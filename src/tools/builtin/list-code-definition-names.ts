/** list_code_definition_names: the classes, functions and types defined in a folder's source files. */
import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { parseDefinitions, supportsFile } from "../code-definitions/definition-parser.js";
import { describeError } from "../file-io.js";
import { approvePath, checkIgnored, readRefusals } from "../path-access.js";
import { success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";
import { walkFiles } from "../walk-files.js";

const maximumFiles = 50;
const maximumFileBytes = 1024 * 1024;

export const listCodeDefinitionNamesTool: ToolDefinition = {
  name: "list_code_definition_names",
  description:
    "List the definitions (classes, functions, methods, types) in the source files directly inside a folder, " +
    "with their line numbers, to get an overview of code before reading it. Supports TypeScript, JavaScript, " +
    "Python, Go, Rust, Java, C and C++.",
  parameters: [{ name: "path", required: true, description: "Folder (or single file) to look at, relative to the workspace.", usage: "Directory path here" }],
  readOnly: true,
  describePartial(params) {
    return { text: `Definitions in ${params["path"] ?? ""}`, meta: { tool: "list_code_definition_names", path: params["path"] ?? "" } };
  },
  async execute(params, runtime) {
    const checked = checkIgnored(runtime, params["path"] ?? "");
    if (!checked.ok) return checked.outcome;
    const approved = await approvePath({ runtime, path: checked.path, access: "read", text: `List definitions in ${checked.path.display}`, meta: { tool: "list_code_definition_names" } });
    if (!approved.ok) return approved.outcome;
    const target = approved.path;
    let files: string[];
    let isFolder: boolean;
    try {
      isFolder = (await stat(target.real)).isDirectory();
    } catch {
      return toolError(`there is nothing at ${target.display}.`);
    }
    if (isFolder) {
      const walked = await walkFiles({ root: target.real, recursive: false, limit: 2000, guard: runtime.guard, signal: runtime.context.signal });
      // #14: every file is checked by its real path: a link out of the workspace is skipped, and so is
      // every file read_file refuses (ignored, credentials, a Read rule), by read_file's own checks.
      files = [];
      const refusal = readRefusals(runtime);
      for (const entry of walked.entries) {
        if (entry.isDirectory || entry.ignored || !supportsFile(extname(entry.absolute))) continue;
        const resolved = runtime.guard.resolve(entry.absolute);
        if (resolved.inside && (await refusal(entry.absolute)) === undefined) files.push(resolved.real);
      }
    } else {
      if (!supportsFile(extname(target.real))) return toolError(`${target.display} is not a source file cairn can parse (TypeScript, JavaScript, Python, Go, Rust, Java, C, C++).`);
      files = [target.real];
    }
    const sections: string[] = [];
    for (const file of files.slice(0, maximumFiles)) {
      try {
        if ((await stat(file)).size > maximumFileBytes) continue;
        const definitions = await parseDefinitions(extname(file), await readFile(file, "utf8"));
        if (definitions.length === 0) continue;
        const width = String(definitions[definitions.length - 1]?.line ?? 1).length;
        sections.push(`${isFolder ? basename(file) : target.display}\n${definitions.map((entry) => `${String(entry.line).padStart(width)} | ${entry.text}`).join("\n")}`);
      } catch (error) {
        sections.push(`${basename(file)}\n(could not parse: ${describeError(error)})`);
      }
    }
    let text = sections.length === 0 ? `No definitions found in the source files of ${target.display}.` : sections.join("\n\n");
    if (files.length > maximumFiles) text += `\n\n[Only the first ${maximumFiles} of ${files.length} source files were parsed. Look at subfolders or single files for the rest.]`;
    return withApprovalFeedback(success(text), approved.feedback);
  },
};
