/**
 * use_subagents (issue #17): runs focused child tasks, each with a fresh
 * conversation, in parallel up to the factory's limit; the result is each
 * child's attempt_completion report with its tokens and cost. The children
 * are built behind the ChildTaskFactory contract (src/task/contracts/subagents.ts).
 */
import { judgeAsk } from "../auto-mode/apply-judgement.js";
import { watchEdits } from "../edit-diagnostics.js";
import type { ToolMetaOf } from "../../task/contracts/message-meta.js";
import type { ChildTaskFactory, SubagentChanges, SubagentReport } from "../../task/contracts/subagents.js";
import { invalidParameter, success, toolError } from "../responses.js";
import type { ToolDefinition, ToolRuntime } from "../tool-definition.js";

export interface SubagentCall {
  prompt: string;
  agent: string;
}

/** The `subagents` parameter: a JSON array of `{ "prompt": "...", "agent": "explore" }` (agent defaults to general). */
export function parseSubagentCalls(text: string, known: string[]): SubagentCall[] | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'it must be a JSON array such as [{"prompt": "Find where X is defined", "agent": "explore"}].' };
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return { problem: "it must be a non-empty JSON array of objects with a prompt." };
  const calls: SubagentCall[] = [];
  for (const [index, item] of parsed.entries()) {
    if (typeof item !== "object" || item === null) return { problem: `item ${index + 1} is not an object with a "prompt".` };
    const { prompt, agent } = item as Record<string, unknown>;
    if (typeof prompt !== "string" || prompt.trim() === "") return { problem: `item ${index + 1} has no "prompt" text.` };
    if (agent !== undefined && typeof agent !== "string") return { problem: `item ${index + 1}: "agent" must be a name.` };
    const name = agent === undefined || agent.trim() === "" ? "general" : agent.trim();
    if (!known.includes(name)) return { problem: `item ${index + 1} names the agent type "${name}", which does not exist; the types are: ${known.join(", ")}.` };
    calls.push({ prompt, agent: name });
  }
  return calls;
}

/** Runs `work` over `items` with at most `limit` at once, keeping their order in the result. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

export function formatReport(report: SubagentReport): string {
  const refused = report.refused === undefined ? "" : ` refused="${report.refused}"`;
  const usage = `tokens_in="${report.tokensIn}" tokens_out="${report.tokensOut}" cost="${report.cost.toFixed(4)}"${refused}`;
  const body = report.status === "completed" ? (report.result ?? "") : `The subagent did not complete (${report.status})${report.error ? `: ${report.error}` : "."}`;
  return `<subagent id="${report.subagentId}" agent="${report.agent}" task="${report.taskId}" status="${report.status}" ${usage}>\n${body}\n</subagent>`;
}

/**
 * A writing child's changes: shown to the parent as a diff, merged into the
 * working tree on approval (the turn's checkpoint, taken before this tool ran,
 * lets the merge be undone); a conflict is reported and nothing is written.
 */
async function offerMerge(factory: ChildTaskFactory, report: SubagentReport, changes: SubagentChanges, runtime: ToolRuntime): Promise<string> {
  const id = report.subagentId;
  const meta: ToolMetaOf<"subagent_merge"> = { tool: "subagent_merge", subagentId: id, files: changes.files, diff: changes.diff, ...(changes.branch === undefined ? {} : { branch: changes.branch }) };
  const question = `[subagent ${id}] Merge its changes into the workspace (${changes.files.join(", ")})?`;
  if (report.status !== "completed") {
    // Never offered (a half-done change is no result), never lost either: kept as a patch file.
    const patch = await factory.keepChanges(id);
    const kept = patch === undefined ? "" : ` They are kept in ${patch} (apply with: git apply ${patch}).`;
    if (patch !== undefined) runtime.context.say("warning", `Subagent ${id} did not complete; its changes were not merged.${kept}`, { meta: { tool: "subagent_merge", subagentId: id, status: "not_merged" } });
    return `<merge subagent="${id}" status="not_merged">\nThe subagent did not complete; its changes were not merged.${kept}\n</merge>`;
  }
  // Auto mode judges the merge as any edit that would be asked; its decision stands in for the user's.
  const judge = runtime.options.judge;
  const judged = !runtime.options.yes && judge?.active === true ? await judgeAsk({ judge, text: question, meta, reason: undefined, signal: runtime.context.signal }) : undefined;
  const shown = judged === undefined ? question : `${question}\n(${judged.line})`;
  const judgedMeta = judged === undefined ? meta : { ...meta, autoMode: judged.card, approval: judged.verdict };
  if (judged?.verdict === "refuse") {
    runtime.context.say("tool", shown, { meta: judgedMeta });
    await factory.discardChanges(id);
    return `<merge subagent="${id}" status="declined">\nAuto mode refused to merge the subagent's changes (${judged.line}); the workspace is unchanged.\n</merge>`;
  }
  if (runtime.options.yes || judged?.verdict === "auto") {
    runtime.context.say("tool", shown, { meta: judgedMeta });
  } else {
    const answer = await runtime.context.ask("tool", shown, { meta: judgedMeta });
    if (answer.response !== "yes") {
      await factory.discardChanges(id);
      const feedback = answer.text?.trim() ? `\nThe user said: ${answer.text.trim()}` : "";
      return `<merge subagent="${id}" status="declined">\nThe user did not merge the subagent's changes; the workspace is unchanged.${feedback}\n</merge>`;
    }
  }
  // The merged files' new problems, as after any edit (#32).
  const watched = await watchEdits(runtime, changes.files);
  const merged = await factory.mergeChanges(id);
  if (merged.kind === "conflict") {
    runtime.context.say("warning", `Subagent ${id}: ${merged.message}`, { meta: { tool: "subagent_merge", subagentId: id, status: "conflict" } });
    return `<merge subagent="${id}" status="conflict">\n${merged.message}\nThe diff was:\n${changes.diff}\n</merge>`;
  }
  const files = merged.kind === "merged" ? merged.files : [];
  const problems = merged.kind === "merged" ? await watched.report() : undefined;
  return `<merge subagent="${id}" status="merged">\nMerged into the working tree (uncommitted): ${files.join(", ")}${problems === undefined ? "" : `\n\n${problems}`}\n</merge>`;
}

export function createUseSubagentsTool(factory: ChildTaskFactory): ToolDefinition {
  const known = (): string[] => factory.agentTypes().map((type) => type.name);
  return {
    name: "use_subagents",
    description: () =>
      "Run focused subagents, each with its own fresh conversation, to explore or do self-contained work in parallel " +
      `(at most ${factory.maxParallel} at once); each returns one report, which keeps your own conversation small. ` +
      `Give each a complete prompt: it sees nothing of this conversation. Agent types: ${factory
        .agentTypes()
        .map((type) => `${type.name} (${type.description})`)
        .join("; ")}.`,
    parameters: [
      {
        name: "subagents",
        required: true,
        type: "array",
        items: { type: "object", properties: { prompt: { type: "string" }, agent: { type: "string" } }, required: ["prompt"] },
        description: 'The subagents to run, as a JSON array of objects: [{"prompt": "...", "agent": "explore"}]; "agent" defaults to "general".',
        usage: '[{"prompt": "Find where the config is loaded and summarise it", "agent": "explore"}]',
      },
    ],
    // A general subagent may edit: the parent waits for its first checkpoint, and checkpoints after the turn.
    readOnly: false,
    modes: ["act"],
    async execute(params, runtime) {
      const calls = parseSubagentCalls(params["subagents"] ?? "", known());
      if (!Array.isArray(calls)) return invalidParameter({ tool: "use_subagents", parameter: "subagents", problem: calls.problem });
      const ids = calls.map((call) => factory.newSubagentId(call.agent));
      const list = calls.map((call, index) => ({ subagentId: ids[index] ?? "", agent: call.agent, prompt: call.prompt }));
      runtime.context.say("tool", list.map((item) => `${item.subagentId}: ${item.prompt}`).join("\n"), {
        key: runtime.callId,
        meta: { tool: "use_subagents", subagents: list },
      });
      const readOnlyTypes = new Set(
        factory
          .agentTypes()
          .filter((type) => type.readOnly)
          .map((type) => type.name),
      );
      if (calls.some((call) => !readOnlyTypes.has(call.agent))) await runtime.context.beforeMutation();
      const signal = runtime.context.signal;
      const onAbort = (): void => void factory.abortAll();
      signal.addEventListener("abort", onAbort, { once: true });
      let reports: SubagentReport[];
      try {
        reports = await inParallel(calls, factory.maxParallel, (call, index) => factory.runChild({ subagentId: ids[index] ?? "", prompt: call.prompt, agent: call.agent, signal }));
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
      if (signal.aborted) {
        return toolError(
          "the task was cancelled while its subagents ran; they were stopped. When the task resumes, call use_subagents again with the same subagents: interrupted ones go on where they stopped, finished ones give their reports again.",
        );
      }
      for (const report of reports) {
        const refused = report.refused === undefined ? "" : `, ${report.refused} refused`;
        const spent = `${report.tokensIn + report.tokensOut} tokens, $${report.cost.toFixed(4)}${refused}`;
        const { subagentId, taskId, status, tokensIn, tokensOut, cost } = report;
        runtime.context.say("info", `Subagent ${subagentId} ${status} (${spent}).`, {
          meta: { tool: "use_subagents", subagentReport: { subagentId, taskId, status, tokensIn, tokensOut, cost, ...(report.refused === undefined ? {} : { refused: report.refused }) } },
        });
      }
      const merges: string[] = [];
      for (const report of reports) {
        if (report.changes === undefined) continue;
        merges.push(await offerMerge(factory, report, report.changes, runtime));
      }
      return success([...reports.map(formatReport), ...merges].join("\n\n"));
    },
  };
}
