/**
 * new_rule (Cline's tool): writes a rule file into `.clinerules/` or
 * `.cairn/rules/`. It is a write like any other, shown as a diff, and it
 * always asks (unless the whole run is `--yes`): a rule changes how every
 * later task behaves.
 */
import { isToolMeta } from "../task/contracts/message-meta.js";
import { stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import { writeToFileTool } from "../tools/builtin/write-to-file.js";
import type { ToolDefinition, ToolRuntime } from "../tools/tool-definition.js";

function ruleFolders(workspace: string): string[] {
  return [join(workspace, ".clinerules"), join(workspace, ".cairn", "rules")];
}

/** The rule's path inside the workspace, or why it cannot be written there. */
async function rulePath(workspace: string, requested: string): Promise<{ path: string } | { problem: string }> {
  const trimmed = requested.trim();
  // A bare name goes into .clinerules/ (Cline's place), or .cairn/rules/ when .clinerules is a single file.
  const clinerulesIsFile = (await stat(join(workspace, ".clinerules")).catch(() => undefined))?.isFile() === true;
  const absolute = trimmed.includes("/") ? resolve(workspace, trimmed) : join(workspace, clinerulesIsFile ? join(".cairn", "rules") : ".clinerules", trimmed);
  const inFolder = ruleFolders(workspace).some((folder) => absolute.startsWith(folder + sep));
  if (!inFolder) return { problem: `new_rule writes only into .clinerules/ or .cairn/rules/; "${requested}" is elsewhere. Use a path like .clinerules/testing.md.` };
  if (clinerulesIsFile && absolute.startsWith(join(workspace, ".clinerules") + sep)) {
    return { problem: ".clinerules is a single file here; write the rule into .cairn/rules/ instead." };
  }
  if (!absolute.endsWith(".md")) return { problem: `A rule file is Markdown: give a path ending in .md (not "${requested}").` };
  return { path: relative(workspace, absolute) };
}

export const newRuleTool: ToolDefinition = {
  name: "new_rule",
  description:
    "Create or replace a rule file the user will keep (coding conventions, project facts, how to test). Rules are Markdown in " +
    '.clinerules/ (or .cairn/rules/); a rule that applies only to some files starts with front matter `paths: ["src/**/*.ts"]`. ' +
    "The user approves the file before it is written.",
  parameters: [
    { name: "path", required: true, description: "The rule file, e.g. .clinerules/testing.md (a bare name goes into .clinerules/).", usage: ".clinerules/rule-name.md" },
    { name: "content", required: true, description: "The complete Markdown content of the rule.", usage: "Rule content here" },
  ],
  readOnly: false,
  mutates: true,
  describePartial(params, runtime) {
    const partial = writeToFileTool.describePartial?.(params, runtime);
    const written = isToolMeta(partial?.meta, "write_to_file") ? partial?.meta : undefined;
    return { text: `New rule ${params["path"] ?? ""}`, meta: { ...written, tool: "new_rule" } };
  },
  async execute(params, runtime): Promise<ToolOutcome> {
    const workspace = runtime.guard.root;
    const target = await rulePath(workspace, params["path"] ?? "");
    if ("problem" in target) return { status: "error", content: target.problem };
    const asking: ToolRuntime = { ...runtime, context: { ...runtime.context, hookApproval: "ask" } };
    return writeToFileTool.execute({ ...params, path: target.path }, asking);
  },
};
