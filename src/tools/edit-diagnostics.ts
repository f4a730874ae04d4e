/**
 * The new problems of an edit (issue #32), added to the edit's result: the
 * text after the result for the model, the counts on the card. The probe
 * starts before the file is written (the problems before the edit are
 * collected meanwhile) and ends within its deadline whatever the servers do.
 */
import { readFile } from "node:fs/promises";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import type { EditProbe } from "./language-port.js";
import type { ToolRuntime } from "./tool-definition.js";

/** Starts watching an edit of `path` (absolute), whose content is `before` (undefined: a new file). */
export function watchEdit(runtime: ToolRuntime, path: string, before: string | undefined): EditProbe | undefined {
  try {
    return runtime.options.languages?.beforeEdit(path, before);
  } catch {
    return undefined;
  }
}

/** The edit's outcome with the problems it introduced (the outcome as it was when nothing was watched). */
export async function withEditDiagnostics(outcome: ToolOutcome, probe: EditProbe | undefined, after: string): Promise<ToolOutcome> {
  if (probe === undefined || outcome.status !== "success" || typeof outcome.content !== "string") return outcome;
  const report = await probe.afterEdit(after);
  const content = report.text === undefined ? outcome.content : `${outcome.content}\n\n${report.text}`;
  return { ...outcome, content, card: { ...outcome.card, diagnostics: report.counts } };
}

/**
 * Several files about to change at once (a subagent's merge): each served file is
 * watched; `report` gives the new problems of them all once they are written.
 */
export async function watchEdits(runtime: ToolRuntime, paths: readonly string[]): Promise<{ report(): Promise<string | undefined> }> {
  const watched: Array<{ real: string; probe: EditProbe }> = [];
  for (const path of paths) {
    const target = runtime.guard.resolve(path);
    if (!target.inside || target.ignored || runtime.options.languages?.serves(target.real) !== true) continue;
    const before = await readFile(target.real, "utf8").catch(() => undefined);
    const probe = watchEdit(runtime, target.real, before);
    if (probe !== undefined) watched.push({ real: target.real, probe });
  }
  return {
    async report() {
      const reports = await Promise.all(watched.map(async ({ real, probe }) => probe.afterEdit(await readFile(real, "utf8").catch(() => ""))));
      const texts = reports.map((report) => report.text).filter((text): text is string => text !== undefined);
      return texts.length === 0 ? undefined : [...new Set(texts)].join("\n\n");
    },
  };
}
