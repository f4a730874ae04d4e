import { relative } from "node:path";
import type { HookStatusMeta } from "../task/contracts/message-meta.js";
import type { HookReport } from "./hook-runner.js";
import { plainOutputIsContext } from "./hook-runner.js";
import { hookLabel } from "./hook-definition.js";

function shorten(text: string, limit = 300): string {
  const single = text.trim();
  return single.length > limit ? `${single.slice(0, limit)}…` : single;
}

/** The `hook_status` line the user sees for one hook run. */
export function describeHookReport(report: HookReport, workspace: string): { text: string; meta: HookStatusMeta } {
  const { hook, verdict, result } = report;
  const label = hook.origin.kind === "executable" ? relative(workspace, hook.origin.file) || hook.origin.file : hookLabel(hook);
  const name = `${report.event} hook ${label.startsWith("..") ? hook.origin.file : label}`;
  let what: string;
  if (verdict.problem !== undefined) what = verdict.problem;
  else if (verdict.decision === "block") what = `blocked: ${shorten(verdict.reason ?? "")}`;
  else if (verdict.decision !== undefined) what = `answered ${verdict.decision}${verdict.reason ? `: ${shorten(verdict.reason)}` : ""}`;
  else if (verdict.stopReason !== undefined) what = `stopped the task: ${shorten(verdict.stopReason)}`;
  else if (verdict.additionalContext !== undefined || (verdict.plainOutput !== undefined && plainOutputIsContext.has(report.event))) what = "added context";
  else what = "ran";
  const extra = [verdict.systemMessage, verdict.decision === undefined && verdict.problem === undefined ? verdict.plainOutput : undefined]
    .filter((line): line is string => line !== undefined)
    .map((line) => shorten(line));
  return {
    text: [`${name} ${what}`, ...extra].join("\n"),
    meta: {
      event: report.event,
      hook: label,
      source: hook.origin.file,
      scope: hook.scope,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      cancelled: result.cancelled,
      durationMs: result.durationMs,
      ...(verdict.decision ? { decision: verdict.decision } : {}),
      ...(verdict.updatedInput ? { updatedInput: true } : {}),
      ...(verdict.stopReason ? { stopReason: verdict.stopReason } : {}),
      ...(result.truncated ? { truncated: true } : {}),
    },
  };
}
