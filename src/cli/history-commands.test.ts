import { Command } from "commander";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { registerHistoryCommands } from "./history-commands.js";
import { copiedTasks } from "../store/test-support/copied-tasks.js";
import { captureOutput } from "./test-support/capture-output.js";

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "cairn-history-cli-"));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dataDir, { recursive: true, force: true });
});

async function cairn(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const program = new Command("cairn").exitOverride();
  registerHistoryCommands(program, { dataDir: () => dataDir });
  const output = { stdout: "", stderr: "" };
  await captureOutput(output, () => program.parseAsync(args, { from: "user" }));
  return output;
}

async function makeTask(task = "Rename the config loader"): Promise<string> {
  const writer = await new TaskStore({ dataDir }).create({ task, workspace: "/work/project" });
  writer.append({ kind: "ui", message: { id: "1", ts: Date.now(), type: "say", say: "task", text: task, partial: false } });
  writer.append({ kind: "ui", message: { id: "2", ts: Date.now(), type: "say", say: "text", text: "First line\nsecond line", partial: false } });
  writer.append({ kind: "ui", message: { id: "3", ts: Date.now(), type: "ask", ask: "completion_result", text: "Done.", partial: false } });
  writer.append({ kind: "status", status: "completed", tokensIn: 1200, tokensOut: 300, cost: 0.0123 });
  await writer.close();
  return writer.taskId;
}

describe("cairn history", () => {
  it("says there are no tasks yet", async () => {
    expect((await cairn("history")).stdout).toContain("No tasks yet");
  });

  it("lists tasks with id, status, tokens, cost and the task's first words", async () => {
    const taskId = await makeTask();
    const { stdout } = await cairn("history");
    expect(stdout).toContain("STATUS");
    expect(stdout).toMatch(new RegExp(`${taskId}\\s+completed\\s+\\S+ \\S+\\s+1200/300\\s+\\$0\\.0123\\s+Rename the config loader`));
  });

  it("lists the newest task first, as /history and the --resume picker do (table and --json)", async () => {
    const older = await makeTask("The older task");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await makeTask("The newer task");
    const { stdout } = await cairn("history");
    expect(stdout.indexOf(newer)).toBeGreaterThan(-1);
    expect(stdout.indexOf(newer)).toBeLessThan(stdout.indexOf(older));
    const rows = JSON.parse((await cairn("history", "--json")).stdout) as Array<{ taskId: string }>;
    expect(rows.map((row) => row.taskId)).toEqual([newer, older]);
  });

  it("--json prints the rows", async () => {
    const taskId = await makeTask();
    const rows = JSON.parse((await cairn("history", "--json")).stdout) as Array<Record<string, unknown>>;
    expect(rows).toEqual([expect.objectContaining({ taskId, status: "completed", tokensIn: 1200, cost: 0.0123, workspace: "/work/project" })]);
  });
});

describe("cairn history of a long history", () => {
  it("prints the newest 50 tasks and says how many older ones it left out; --limit and --all change how many", async () => {
    await copiedTasks(new TaskStore({ dataDir }), 55);
    const { stdout } = await cairn("history");
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1 + 50 + 1);
    expect(lines[1]).toMatch(/^copy-00054\s/);
    expect(lines[50]).toMatch(/^copy-00005\s/);
    expect(lines[51]).toContain("5 older tasks not shown (cairn history --all, or --limit N)");

    const limited = await cairn("history", "--limit", "2");
    expect(limited.stdout).toMatch(/copy-00054[^]*copy-00053[^]*53 older tasks not shown/);

    const all = await cairn("history", "--all");
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(1 + 55);
    expect(all.stdout).not.toContain("not shown");
  });

  it("--json prints the newest rows as one JSON array and says beside it how many were left out; with --all, every task", async () => {
    await copiedTasks(new TaskStore({ dataDir }), 55);
    const newest = await cairn("history", "--json", "--limit", "3");
    expect((JSON.parse(newest.stdout) as Array<{ taskId: string }>).map((row) => row.taskId)).toEqual(["copy-00054", "copy-00053", "copy-00052"]);
    expect(newest.stderr).toContain("52 older tasks not shown");
    const all = await cairn("history", "--json", "--all");
    expect(JSON.parse(all.stdout)).toHaveLength(55);
    expect(all.stderr).toBe("");
  });

  it("refuses a --limit that is not a whole number of tasks", async () => {
    await expect(cairn("history", "--limit", "0")).rejects.toThrow(/whole number/);
  });
});

describe("cairn show", () => {
  it("prints a task's messages readably, found by the id's last part", async () => {
    const taskId = await makeTask();
    const { stdout } = await cairn("show", taskId.slice(-6));
    expect(stdout).toContain(`Task ${taskId}`);
    expect(stdout).toContain("Workspace: /work/project");
    expect(stdout).toMatch(/task\s+Rename the config loader/);
    expect(stdout).toMatch(/text\s+First line\n\s+second line/);
    expect(stdout).toMatch(/ask:completion_result\s+Done\./);
  });

  it("reports a damaged log line on stderr and still shows the rest", async () => {
    const taskId = await makeTask();
    await writeFile(join(dataDir, "tasks", taskId, "log.jsonl"), '{"kind":"ui","message":{"id":"9","ts":0,"type":"say","say":"text","text":"kept","partial":false}}\n{"kind":"ui","mes');
    const { stdout, stderr } = await cairn("show", taskId);
    expect(stdout).toContain("kept");
    expect(stderr).toContain("cut off mid-write");
  });

  it("names an unknown task clearly", async () => {
    await expect(cairn("show", "nope")).rejects.toThrow(/no task "nope".*cairn history/);
  });
});
