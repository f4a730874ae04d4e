/**
 * `cairn replay TASK`: a recorded task's model answers, in order, as a
 * scenario for cairn's scripted LLM server, so a session that went wrong
 * becomes a regression test that runs offline.
 */
import { metaOf, type ApiRequestMeta } from "../task/contracts/message-meta.js";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ContentBlock, Message } from "../llm/types.js";
import type { Scenario, ScenarioTurn } from "../llm/scripted/scenario.js";
import { parseScenario } from "../llm/scripted/scenario.js";
import type { StoreLogEntry } from "../store/types.js";

function parseLines(text: string): StoreLogEntry[] {
  const entries: StoreLogEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line) as StoreLogEntry);
    } catch {
      // A torn last line (a crash mid-write) is not an answer.
    }
  }
  return entries;
}

/**
 * Every answer the model gave, in order. A history rewrite (cut to nothing,
 * then the kept messages appended again) repeats earlier answers: those
 * repeats are skipped, so each answer appears once.
 */
export function modelAnswers(entries: readonly StoreLogEntry[]): Message[] {
  const answers: Message[] = [];
  const seen = new Set<string>();
  let rewriting = false;
  for (const entry of entries) {
    if (entry.kind === "api_truncate") {
      rewriting = true;
      continue;
    }
    if (entry.kind !== "api") continue;
    const key = JSON.stringify(entry.message);
    if (rewriting && seen.has(key)) continue;
    rewriting = false;
    if (entry.message.role !== "assistant") continue;
    seen.add(key);
    answers.push(entry.message);
  }
  return answers;
}

function turnOf(message: Message): ScenarioTurn {
  const text = message.content
    .filter((block): block is Extract<ContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("");
  const reasoning = message.content.filter((block): block is Extract<ContentBlock, { type: "reasoning" }> => block.type === "reasoning" && block.redactedData === undefined);
  const redacted = message.content.flatMap((block) => (block.type === "reasoning" && block.redactedData !== undefined ? [block.redactedData] : []));
  const toolCalls = message.content.flatMap((block) => (block.type === "tool_use" ? [{ id: block.id, name: block.name, arguments: block.input }] : []));
  const signature = reasoning.find((block) => block.signature !== undefined)?.signature;
  return {
    ...(reasoning.length > 0 ? { reasoning: reasoning.map((block) => block.text).join("") } : {}),
    ...(signature !== undefined ? { reasoningSignature: signature } : {}),
    ...(redacted.length > 0 ? { redactedReasoning: redacted } : {}),
    ...(text !== "" || toolCalls.length === 0 ? { text } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
}

/** Usage per request, from the UI's request messages, when they line up one to one with the answers. */
function usages(entries: readonly StoreLogEntry[]): Array<{ inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number }> {
  const byId = new Map<string, ApiRequestMeta>();
  for (const entry of entries) {
    const meta = entry.kind === "ui" ? metaOf(entry.message, "api_req_started") : undefined;
    if (entry.kind === "ui" && meta !== undefined) byId.set(entry.message.id, meta);
  }
  return [...byId.values()].map((meta) => ({
    inputTokens: meta.tokensIn,
    outputTokens: meta.tokensOut,
    ...(meta.cacheReads > 0 ? { cacheReadTokens: meta.cacheReads } : {}),
    ...(meta.cacheWrites > 0 ? { cacheWriteTokens: meta.cacheWrites } : {}),
  }));
}

export function scenarioFromLog(entries: readonly StoreLogEntry[]): Scenario {
  const answers = modelAnswers(entries);
  const usage = usages(entries);
  const turns = answers.map((answer, index) => {
    const turn = turnOf(answer);
    const used = usage.length === answers.length ? usage[index] : undefined;
    return used ? { ...turn, usage: used } : turn;
  });
  // Checked against the scenario schema, so what is written always loads.
  return parseScenario({ turns }, "the replayed scenario");
}

export async function replayTask(options: { dataDir: string; taskId: string }): Promise<Scenario> {
  const { TaskStore } = await import("../store/task-store.js");
  const store = new TaskStore({ dataDir: options.dataDir });
  const taskId = await store.resolveTaskId(options.taskId);
  const text = await readFile(join(store.taskDir(taskId), "log.jsonl"), "utf8").catch(() => "");
  const scenario = scenarioFromLog(parseLines(text));
  if (scenario.turns.length === 0) throw new Error(`task ${taskId} has no model answers to replay`);
  return scenario;
}
