/**
 * The path checks every file tool shares: resolve through the workspace
 * guard, refuse ignored files, then ask the approval policy.
 */
import type { PathToolName, ToolMetaByName } from "../task/contracts/message-meta.js";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import { ignoredPath } from "./responses.js";
import type { ToolRuntime } from "./tool-definition.js";
import type { ResolvedPath } from "./workspace-guard.js";

export type PathAccess = { ok: true; path: ResolvedPath; feedback?: string } | { ok: false; outcome: ToolOutcome };

export function checkIgnored(runtime: ToolRuntime, requested: string): PathAccess {
  const path = runtime.guard.resolve(requested);
  if (path.ignored) return { ok: false, outcome: ignoredPath(path.display) };
  return { ok: true, path };
}

/** The card's meta a file tool adds to the path and whether it is outside the workspace (filled in here). */
export type PathCardMeta = { [N in PathToolName]: { tool: N } & Omit<ToolMetaByName[N], "path" | "outsideWorkspace"> }[PathToolName];

export async function approvePath(options: { runtime: ToolRuntime; path: ResolvedPath; access: "read" | "edit"; text: string; meta: PathCardMeta }): Promise<PathAccess> {
  const { runtime, path, access, text } = options;
  const decision = await runtime.approvals.approve({
    request: { kind: access, inside: path.inside, path: path.display, absolute: path.absolute, real: path.real },
    context: runtime.context,
    presentation: {
      key: runtime.callId,
      text,
      // The keys in the order the card always had on the wire: tool, path, outsideWorkspace, then the tool's own.
      meta: Object.assign({ tool: options.meta.tool, path: path.display, outsideWorkspace: !path.inside }, options.meta),
    },
  });
  if (!decision.approved) return { ok: false, outcome: decision.outcome };
  return decision.feedback === undefined ? { ok: true, path } : { ok: true, path, feedback: decision.feedback };
}

/** Why read_file would not show a file (absolute path), or undefined when it would: see `readRefusals`. */
export type ReadRefusal = (absolute: string) => Promise<string | undefined>;

/**
 * Why read_file would not show this file (absolute path, as a walk or a search
 * found it) without asking, or undefined when it would: the same two checks
 * read_file makes, the ignore files and the approval policy's verdict on a
 * read (credentials, Read rules, reads outside the workspace with --yes). An
 * explicit ask counts as a refusal: a tool that shows the content of many files
 * cannot ask about each. search_files and list_code_definition_names leave out
 * what this refuses; list_files marks it.
 *
 * One checker serves one tool call: the ignore files and what the policy knows
 * about the repository (git's hooks folder) are read once for all its paths
 * instead of once per path, so the call judges every path by the same state.
 */
export function readRefusals(runtime: ToolRuntime): ReadRefusal {
  const guard = runtime.guard.snapshot();
  const approvals = runtime.approvals.forOneCall();
  return async (absolute) => {
    const path = guard.resolve(absolute);
    if (path.ignored) return `${path.display} is hidden by the ignore file`;
    const detail = await approvals.verdict({ kind: "read", inside: path.inside, path: path.display, absolute: path.absolute, real: path.real });
    if (detail.verdict === "refuse" || detail.explicit === true) return detail.reason ?? `${path.display} may not be read`;
    return undefined;
  };
}
