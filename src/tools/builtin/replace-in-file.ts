/** replace_in_file: targeted SEARCH/REPLACE edits; all blocks apply or nothing is written. */
import type { ToolMetaOf } from "../../task/contracts/message-meta.js";
import { readFileSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { applySearchReplace } from "../diff/apply-blocks.js";
import { describeMalformedDiff, parseSearchReplace } from "../diff/parse-blocks.js";
import { approvePath, checkIgnored } from "../path-access.js";
import { decodeText, describeError, encodeText, looksBinary } from "../file-io.js";
import { stampOf } from "../file-tracker.js";
import { success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition, ToolRuntime } from "../tool-definition.js";
import { unifiedDiff } from "../unified-diff.js";
import { watchEdit, withEditDiagnostics } from "../edit-diagnostics.js";

const maximumPreviewBytes = 8 * 1024 * 1024;
const maximumDiffInResult = 20_000;

/** While a diff streams, the file is read once per call and the preview recomputed only when a block completes. */
const previews = new Map<string, { content: string | undefined; blocks: number; diff: string; scanned: number }>();

function previewFor(callId: string, path: string, diff: string): { blocks: number; diff: string } {
  let entry = previews.get(callId);
  if (entry === undefined) {
    let content: string | undefined;
    try {
      if (statSync(path).size <= maximumPreviewBytes) content = decodeText(readFileSync(path)).text;
    } catch {
      content = undefined;
    }
    entry = { content, blocks: 0, diff: "", scanned: 0 };
    previews.set(callId, entry);
    if (previews.size > 16) previews.delete(previews.keys().next().value ?? callId);
  }
  // Parsing the whole diff on every streamed chunk would cost quadratic time: only a new REPLACE marker can complete a block.
  const markerSeen = diff.indexOf("REPLACE", Math.max(0, entry.scanned - "REPLACE".length)) >= 0;
  entry.scanned = diff.length;
  if (!markerSeen) return { blocks: entry.blocks, diff: entry.diff };
  const parsed = parseSearchReplace(diff);
  if (parsed.blocks.length !== entry.blocks && entry.content !== undefined) {
    entry.blocks = parsed.blocks.length;
    const applied = applySearchReplace(entry.content, parsed.blocks);
    entry.diff = applied.ok ? unifiedDiff({ path, before: entry.content.replace(/\r\n/g, "\n"), after: applied.content.replace(/\r\n/g, "\n") }) : "";
  }
  return { blocks: entry.blocks, diff: entry.diff };
}

async function readTarget(runtime: ToolRuntime, real: string, display: string) {
  try {
    const info = await stat(real);
    if (info.isDirectory()) return { error: toolError(`${display} is a folder, not a file.`) } as const;
    const buffer = await runtime.options.operations.readFile(real);
    if (looksBinary(real, buffer)) return { error: toolError(`${display} is a binary file and cannot be edited as text.`) } as const;
    const decoded = decodeText(buffer);
    const stamp = stampOf(buffer, info);
    return { decoded, stamp, changed: runtime.files.changedSinceRead(real, stamp) } as const;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") {
      return { error: toolError(`there is no file at ${display}. Create it with write_to_file.`) } as const;
    }
    return { error: toolError(`could not read ${display}: ${describeError(error)}`) } as const;
  }
}

export const replaceInFileTool: ToolDefinition = {
  name: "replace_in_file",
  description:
    "Change parts of an existing file with SEARCH/REPLACE blocks:\n" +
    "------- SEARCH\n[exact lines from the file]\n=======\n[the lines to put instead]\n+++++++ REPLACE\n" +
    "Each SEARCH must match whole lines of the current file (copy them exactly, including whitespace). " +
    "Several blocks are applied in file order, each to the first match after the previous one. An empty REPLACE " +
    "deletes the lines. To move code, use one block to delete it and another to insert it. Keep blocks short: " +
    "include only the lines that change plus a few lines that make the match unique. If any block does not match, " +
    "nothing is written.",
  parameters: [
    { name: "path", required: true, description: "Path of the file, relative to the workspace.", usage: "File path here" },
    { name: "diff", required: true, description: "One or more SEARCH/REPLACE blocks.", usage: "Search and replace blocks here" },
  ],
  readOnly: false,
  mutates: true,
  describePartial(params, runtime) {
    const requested = params["path"] ?? "";
    const meta: ToolMetaOf<"replace_in_file"> = { tool: "replace_in_file", path: requested };
    if (requested !== "" && params["diff"] !== undefined) {
      const target = runtime.guard.resolve(requested);
      if (!target.ignored) {
        const preview = previewFor(runtime.callId, target.real, params["diff"]);
        meta.blocksComplete = preview.blocks;
        meta.diff = preview.diff;
      }
    }
    return { text: `Edit ${requested}`, meta };
  },
  async execute(params, runtime) {
    previews.delete(runtime.callId);
    const checked = checkIgnored(runtime, params["path"] ?? "");
    if (!checked.ok) return checked.outcome;
    const target = checked.path;
    const parsed = parseSearchReplace(params["diff"] ?? "", { final: true });
    const malformed = describeMalformedDiff(parsed);
    if (malformed !== undefined) return toolError(`the diff parameter is malformed: ${malformed} Nothing was written.`);
    const read = await readTarget(runtime, target.real, target.display);
    if ("error" in read) return read.error;
    const applied = applySearchReplace(read.decoded.text, parsed.blocks);
    if (!applied.ok) {
      const changedNote = read.changed === true ? "Note: the file changed on disk since you last read it. " : "";
      runtime.context.say("diff_error", applied.message, { meta: { tool: "replace_in_file", path: target.display } });
      return toolError(`${changedNote}${applied.message}`);
    }
    const before = read.decoded.text.replace(/\r\n/g, "\n");
    const patch = unifiedDiff({ path: target.display, before, after: applied.content.replace(/\r\n/g, "\n") });
    const approved = await approvePath({
      runtime,
      path: target,
      access: "edit",
      text: `Edit ${target.display}\n${patch}`,
      meta: { tool: "replace_in_file", diff: patch, blocks: parsed.blocks.length },
    });
    if (!approved.ok) return approved.outcome;
    await runtime.context.beforeMutation([target.real]);
    // The user may have taken a while to approve: apply to the file as it is now.
    const fresh = await readTarget(runtime, target.real, target.display);
    if ("error" in fresh) return fresh.error;
    let finalContent = applied.content;
    if (fresh.stamp.hash !== read.stamp.hash) {
      const again = applySearchReplace(fresh.decoded.text, parsed.blocks);
      if (!again.ok) return toolError(`the file changed on disk while waiting for approval. ${again.message}`);
      finalContent = again.content;
    }
    const probe = watchEdit(runtime, target.real, fresh.decoded.text);
    try {
      await runtime.options.operations.writeFile(target.real, encodeText(finalContent, fresh.decoded.encoding));
    } catch (error) {
      return toolError(`could not write ${target.display}: ${describeError(error)}. Nothing was changed.`);
    }
    runtime.files.forget(target.real);
    const where = applied.matches.map((match) => `lines ${match.startLine}-${match.endLine} (${match.strategy} match)`).join(", ");
    const shownPatch = patch.length > maximumDiffInResult ? `${patch.slice(0, maximumDiffInResult)}\n[diff cut]` : patch;
    const outcome = await withEditDiagnostics(success(`Applied ${parsed.blocks.length} block(s) to ${target.display}: ${where}. The change:\n${shownPatch}`), probe, finalContent);
    return withApprovalFeedback(outcome, approved.feedback);
  },
};
