/** write_to_file: creates or replaces a whole file, atomically, after showing the diff. */
import { stat } from "node:fs/promises";
import { extname } from "node:path";
import { approvePath, checkIgnored } from "../path-access.js";
import { decodeText, describeError, encodeText, looksBinary, type TextEncodingKind } from "../file-io.js";
import { detectCrlf } from "../diff/apply-blocks.js";
import { success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";
import { diffStat, unifiedDiff } from "../unified-diff.js";
import { watchEdit, withEditDiagnostics } from "../edit-diagnostics.js";

/** Models sometimes wrap the whole file in a Markdown code fence; the fence is not part of the file. */
export function stripStrayFence(content: string, path: string): { text: string; stripped: boolean } {
  if ([".md", ".mdx", ".markdown"].includes(extname(path).toLowerCase())) return { text: content, stripped: false };
  const match = /^\s*```[^\n`]*\r?\n([\s\S]*?)\r?\n?```\s*$/.exec(content);
  if (match === null) return { text: content, stripped: false };
  const inner = match[1] ?? "";
  if (inner.includes("\n```")) return { text: content, stripped: false };
  return { text: inner.endsWith("\n") ? inner : `${inner}\n`, stripped: true };
}

export const writeToFileTool: ToolDefinition = {
  name: "write_to_file",
  description:
    "Write a whole file: creates it (and its folders) or replaces all of its content. Give the complete final content, " +
    "never a partial file with placeholders. To change part of an existing file, prefer replace_in_file.",
  parameters: [
    { name: "path", required: true, description: "Path of the file, relative to the workspace.", usage: "File path here" },
    { name: "content", required: true, allowEmpty: true, description: "The complete content of the file.", usage: "Your file content here" },
  ],
  readOnly: false,
  mutates: true,
  describePartial(params) {
    const content = params["content"] ?? "";
    return {
      text: `Write ${params["path"] ?? ""}`,
      meta: { tool: "write_to_file", path: params["path"] ?? "", content: content.slice(-4000), characters: content.length },
    };
  },
  async execute(params, runtime) {
    const checked = checkIgnored(runtime, params["path"] ?? "");
    if (!checked.ok) return checked.outcome;
    const target = checked.path;
    let before: string | undefined;
    let encoding: TextEncodingKind = "utf8";
    let crlf = false;
    try {
      const info = await stat(target.real);
      if (info.isDirectory()) return toolError(`${target.display} is a folder; give the path of a file inside it.`);
      const existing = await runtime.options.operations.readFile(target.real);
      if (looksBinary(target.real, existing)) {
        return toolError(`${target.display} is a binary file; cairn does not overwrite binary files. Choose another path.`);
      }
      const decoded = decodeText(existing);
      before = decoded.text;
      encoding = decoded.encoding;
      crlf = detectCrlf(before);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") return toolError(`could not read ${target.display}: ${describeError(error)}`);
    }
    const fence = stripStrayFence(params["content"] ?? "", target.real);
    let after = fence.text.replace(/\r\n/g, "\n");
    // The xml value is trimmed, losing the final newline most files have: put it back,
    // unless the file existed without one (#11, as Cline does).
    const hadNoFinalNewline = before !== undefined && before !== "" && !before.endsWith("\n");
    if (runtime.options.protocol === "xml" && after !== "" && !after.endsWith("\n") && !hadNoFinalNewline) after += "\n";
    if (crlf) after = after.replace(/\n/g, "\r\n");
    const patch = unifiedDiff({ path: target.display, before: (before ?? "").replace(/\r\n/g, "\n"), after: after.replace(/\r\n/g, "\n") });
    const verb = before === undefined ? "Create" : "Overwrite";
    const approved = await approvePath({
      runtime,
      path: target,
      access: "edit",
      text: `${verb} ${target.display}\n${patch}`,
      // new_rule writes through this tool under its own name (src/extensions/new-rule-tool.ts).
      // The final card carries the whole content written (the streaming preview only its end).
      meta: { tool: runtime.toolName === "new_rule" ? "new_rule" : "write_to_file", diff: patch, created: before === undefined, content: after, characters: after.length },
    });
    if (!approved.ok) return approved.outcome;
    await runtime.context.beforeMutation([target.real]);
    const probe = watchEdit(runtime, target.real, before);
    try {
      await runtime.options.operations.writeFile(target.real, encodeText(after, encoding));
    } catch (error) {
      return toolError(`could not write ${target.display}: ${describeError(error)}. Nothing was changed.`);
    }
    runtime.files.forget(target.real);
    const lineCount = after === "" ? 0 : after.split("\n").length - (after.endsWith("\n") ? 1 : 0);
    const stats = diffStat(patch);
    const parts = [`${before === undefined ? "Created" : "Updated"} ${target.display}: ${lineCount} lines, ${Buffer.byteLength(after)} bytes (+${stats.added} -${stats.removed} lines).`];
    if (fence.stripped) parts.push("The Markdown code fence around the content was removed; it was not written to the file.");
    if (crlf) parts.push("The file uses CRLF line endings; they were kept.");
    return withApprovalFeedback(await withEditDiagnostics(success(parts.join(" ")), probe, after), approved.feedback);
  },
};
