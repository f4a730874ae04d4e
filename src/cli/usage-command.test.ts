import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { usageReport } from "../store/usage-report.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { makeSandbox, runCli, type Sandbox } from "./test-support/cli-harness.js";

const day = 86_400_000;
const now = Date.now();

interface Recorded {
  taskId: string;
  model: string;
  workspace: string;
  createdAt: number;
  requests: Array<{ tokensIn: number; tokensOut: number; cacheReads: number; cost: number }>;
  toolCalls: number;
  parent?: string;
  /** How long its one run took (ms). */
  ranMs: number;
}

const tasks: Recorded[] = [
  {
    taskId: "2026-11-20T10-00-00-aaaaaa",
    model: "claude-sonnet-4-5",
    workspace: "/w/api",
    createdAt: now - 10 * day,
    requests: [{ tokensIn: 1000, tokensOut: 100, cacheReads: 0, cost: 0.5 }],
    toolCalls: 1,
    ranMs: 60_000,
  },
  {
    taskId: "2026-12-01T10-00-00-bbbbbb",
    model: "claude-sonnet-4-5",
    workspace: "/w/api",
    createdAt: now - 2 * day,
    requests: [
      { tokensIn: 2000, tokensOut: 200, cacheReads: 500, cost: 1.25 },
      { tokensIn: 3000, tokensOut: 300, cacheReads: 1500, cost: 1.75 },
    ],
    toolCalls: 3,
    ranMs: 120_000,
  },
  {
    taskId: "2026-12-01T10-05-00-cccccc",
    model: "gpt-5-mini",
    workspace: "/w/api",
    createdAt: now - 2 * day + 60_000,
    parent: "2026-12-01T10-00-00-bbbbbb",
    requests: [{ tokensIn: 400, tokensOut: 40, cacheReads: 0, cost: 0.25 }],
    toolCalls: 2,
    ranMs: 30_000,
  },
  { taskId: "2026-12-02T10-00-00-dddddd", model: "gpt-5-mini", workspace: "/w/web", createdAt: now - day, requests: [{ tokensIn: 100, tokensOut: 10, cacheReads: 50, cost: 0.125 }], toolCalls: 0, ranMs: 10_000 },
];

function messagesOf(task: Recorded): UiMessage[] {
  const start = task.createdAt;
  const messages: UiMessage[] = [{ id: "t", ts: start, type: "say", say: "task", text: "the task", partial: false }];
  task.requests.forEach((request, index) => {
    const { cacheReads, ...rest } = request;
    messages.push({ id: `r${index}`, ts: start + index + 1, type: "say", say: "api_req_started", text: "", partial: false, meta: { ...rest, cacheReads, cacheWrites: 0 } });
  });
  for (let index = 0; index < task.toolCalls; index += 1) messages.push({ id: `c${index}`, ts: start + 100 + index, type: "say", say: "tool", text: "", partial: false, meta: { tool: "read_file", path: "a.ts" } });
  messages.push({ id: "end", ts: start + task.ranMs, type: "say", say: "completion_result", text: "done", partial: false });
  return messages;
}

/** Each task recorded through the real store, as a run writes it. */
async function record(store: TaskStore, task: Recorded): Promise<void> {
  const writer = await store.create({
    taskId: task.taskId,
    task: `task ${task.taskId}`,
    workspace: task.workspace,
    createdAt: task.createdAt,
    model: task.model,
    ...(task.parent === undefined ? {} : { parent: { taskId: task.parent, subagentId: "explore-1" } }),
  });
  for (const message of messagesOf(task)) writer.append({ kind: "ui", message });
  const sum = (key: "tokensIn" | "tokensOut" | "cost"): number => task.requests.reduce((total, request) => total + request[key], 0);
  writer.append({ kind: "status", status: "completed", tokensIn: sum("tokensIn"), tokensOut: sum("tokensOut"), cost: sum("cost") });
  await writer.close();
}

let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let store: TaskStore;
let sandbox: Sandbox;

beforeAll(async () => {
  folder = await temporaryFolder("cairn-usage-");
  store = new TaskStore({ dataDir: folder.path });
  for (const task of tasks) await record(store, task);
  sandbox = await makeSandbox();
});

afterAll(async () => {
  await folder.remove();
  await sandbox.cleanup();
});

describe("cairn usage", () => {
  it("sums tokens, cache hits, cost, requests, tool calls and active time over every task", async () => {
    const report = usageReport(await store.list());
    expect(report.total).toEqual({ tasks: 4, tokensIn: 6500, tokensOut: 650, cachedTokens: 2050, cacheHits: 3, cost: 3.875, activeMs: 220_000, requests: 5, toolCalls: 6 + 4 });
    expect(report.tasksWithoutCounts).toBe(0);
  });

  it("counts only the tasks active since --since and groups them by day, with a subagent inside its parent task", async () => {
    const rows = await store.list();
    const byTask = usageReport(rows, { since: now - 7 * day, by: "task" });
    expect(byTask.total.tasks).toBe(3);
    expect(byTask.groups.map((group) => [group.key, group.tasks, group.cost, group.requests])).toEqual([
      ["2026-12-01T10-00-00-bbbbbb", 1, 3.25, 3],
      ["2026-12-02T10-00-00-dddddd", 1, 0.125, 1],
    ]);
    const byDay = usageReport(rows, { by: "day" });
    expect(byDay.groups.map((group) => group.cost)).toEqual([0.5, 3.25, 0.125]);
  });

  it("gives the same totals after the history index is lost and rebuilt from the logs", async () => {
    const copy = new TaskStore({ dataDir: folder.path });
    const before = usageReport(await copy.list(), { by: "project" });
    await rm(join(folder.path, "history.jsonl"));
    expect(usageReport(await copy.list(), { by: "project" })).toEqual(before);
  });

  it("prints the report by model as JSON and as a table with a bar chart, from bin/cairn", async () => {
    const json = await runCli(["usage", "--by", "model", "--json", "--data-dir", folder.path], { env: sandbox.env, cwd: sandbox.workspace });
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { groups: Array<{ key: string; cost: number; tasks: number }> };
    expect(report.groups.map((group) => [group.key, group.tasks, group.cost])).toEqual([
      ["claude-sonnet-4-5", 2, 3.5],
      ["gpt-5-mini", 2, 0.375],
    ]);
    const text = await runCli(["usage", "--since", "7d", "--by", "project", "--data-dir", folder.path], { env: sandbox.env, cwd: sandbox.workspace });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("3 tasks · 5,500 tokens in · 550 out · 2,050 cached (3 cache hits) · $3.3750 · 4 requests · 8 tool calls");
    expect(text.stdout).toMatch(/\/w\/api\s+2\s+5,400\s+540\s+2,000\s+3\s+7\s+3 min\s+\$3\.2500\s+█{24}\n/);
    expect(text.stdout).toMatch(/\/w\/web .*\$0\.1250\s+▉\n/);
    const wrong = await runCli(["usage", "--since", "last tuesday", "--data-dir", folder.path], { env: sandbox.env, cwd: sandbox.workspace });
    expect([wrong.status, wrong.stderr]).toEqual([2, "cairn usage: --since last tuesday is neither a span (7d, 24h, 30m, 2w) nor a date (2026-12-01)\n"]);
  });
});
