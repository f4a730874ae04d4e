/** read_file: a window of a text file (1,000 lines by default), with a note on how to read on. */
import { stat } from "node:fs/promises";
import { approvePath, checkIgnored } from "../path-access.js";
import { decodeText, describeError, looksBinary } from "../file-io.js";
import { stampOf } from "../file-tracker.js";
import { invalidParameter, success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";
import { imageMediaType } from "../image-files.js";

export const readFileWindowLines = 1000;
const maximumWindowCharacters = 200_000;
const maximumFileBytes = 64 * 1024 * 1024;
const maximumImageBytes = 5 * 1024 * 1024;

function parseLineNumber(value: string | undefined): number | undefined | "invalid" {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value.trim());
  return Number.isInteger(number) && number >= 1 ? number : "invalid";
}

export const readFileTool: ToolDefinition = {
  name: "read_file",
  description:
    "Read a file's text. Large files come in windows of at most 1,000 lines; the result says how to read on. " + "Binary files cannot be read. Reading the same unchanged file again only says that it is unchanged.",
  parameters: [
    { name: "path", required: true, description: "Path of the file, relative to the workspace.", usage: "File path here" },
    { name: "start_line", required: false, type: "integer", description: "First line to read (1-based). Defaults to 1.", usage: "1" },
    { name: "end_line", required: false, type: "integer", description: "Last line to read (inclusive). Defaults to start_line + 999.", usage: "1000" },
  ],
  readOnly: true,
  describePartial(params) {
    return { text: `Read ${params["path"] ?? ""}`, meta: { tool: "read_file", path: params["path"] ?? "" } };
  },
  async execute(params, runtime) {
    const requested = params["path"] ?? "";
    const start = parseLineNumber(params["start_line"]);
    const end = parseLineNumber(params["end_line"]);
    if (start === "invalid") return invalidParameter({ tool: "read_file", parameter: "start_line", problem: "it must be a whole number of 1 or more." });
    if (end === "invalid") return invalidParameter({ tool: "read_file", parameter: "end_line", problem: "it must be a whole number of 1 or more." });
    if (start !== undefined && end !== undefined && end < start) {
      return invalidParameter({ tool: "read_file", parameter: "end_line", problem: `it (${end}) is before start_line (${start}).` });
    }
    const checked = checkIgnored(runtime, requested);
    if (!checked.ok) return checked.outcome;
    const approved = await approvePath({ runtime, path: checked.path, access: "read", text: `Read ${checked.path.display}`, meta: { tool: "read_file" } });
    if (!approved.ok) return approved.outcome;
    const path = approved.path;
    // The file's language server (if any) starts and checks it now: the first edit finds it warm (#32).
    if (path.inside) runtime.options.languages?.noteRead(path.real);
    let content: Buffer;
    let info: { mtimeMs: number; size: number };
    try {
      const fileStat = await stat(path.real);
      if (fileStat.isDirectory()) return toolError(`${path.display} is a folder, not a file. Use list_files to see what it holds.`);
      if (fileStat.size > maximumFileBytes) {
        return toolError(`${path.display} is ${Math.round(fileStat.size / 1048576)} MB, too large to read. Use search_files to find the part you need, or a command such as sed -n to print some lines.`);
      }
      content = await runtime.options.operations.readFile(path.real);
      info = fileStat;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOENT") return toolError(`there is no file at ${path.display}. Use list_files to see which files exist.`);
      return toolError(`could not read ${path.display}: ${describeError(error)}`);
    }
    const image = imageMediaType(path.real);
    if (image !== undefined && runtime.options.supportsImages === true) {
      // Issue #12: the model sees the picture, not "a binary file".
      if (content.length > maximumImageBytes) return toolError(`${path.display} is an image of ${Math.round(content.length / 1048576)} MB, larger than the ${maximumImageBytes / 1048576} MB a model accepts.`);
      return withApprovalFeedback(
        {
          status: "success",
          content: [
            { type: "text", text: `Image ${path.display} (${image}, ${content.length} bytes):` },
            { type: "image", mediaType: image, data: content.toString("base64") },
          ],
        },
        approved.feedback,
      );
    }
    if (looksBinary(path.real, content)) {
      return toolError(`${path.display} is a binary file (${content.length} bytes) and cannot be read as text.`);
    }
    const stamp = stampOf(content, info);
    const window = `${start ?? ""}:${end ?? ""}`;
    if (runtime.files.isRepeatRead(path.real, stamp, window)) {
      return withApprovalFeedback(
        success(`${path.display} has not changed since you last read it; its content is in your earlier read_file result. To receive it again, call read_file with a different start_line or end_line.`),
        approved.feedback,
      );
    }
    const decoded = decodeText(content);
    const lines = decoded.text.split(/\r?\n/);
    if (decoded.text.endsWith("\n")) lines.pop();
    const total = lines.length;
    if (total === 0) {
      runtime.files.recordRead(path.real, stamp, window);
      return withApprovalFeedback(success(`${path.display} is empty.`), approved.feedback);
    }
    const first = start ?? 1;
    if (first > total) {
      return invalidParameter({ tool: "read_file", parameter: "start_line", problem: `${path.display} has only ${total} lines.` });
    }
    const last = Math.min(total, end ?? first + readFileWindowLines - 1);
    let body = lines.slice(first - 1, last).join("\n");
    const notes: string[] = [];
    let shownLast = last;
    if (body.length > maximumWindowCharacters) {
      body = body.slice(0, maximumWindowCharacters);
      shownLast = first - 1 + body.split("\n").length;
      notes.push(`The lines are very long: the text was cut after ${maximumWindowCharacters} characters, within line ${shownLast}.`);
    }
    if (decoded.encoding === "latin1") notes.push("The file is not valid UTF-8; it is shown as Latin-1 and edits keep its bytes.");
    if (first > 1 || shownLast < total) {
      const more = shownLast < total ? ` To read on, call read_file with start_line=${shownLast + 1}.` : "";
      notes.unshift(`Showing lines ${first}-${shownLast} of ${total}.${more}`);
    }
    runtime.files.recordRead(path.real, stamp, window);
    const header = notes.length > 0 ? `[${notes.join(" ")}]\n` : "";
    return withApprovalFeedback(success(`${header}${body}`), approved.feedback);
  },
};
