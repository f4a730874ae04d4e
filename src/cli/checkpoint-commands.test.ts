import { Command } from "commander";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCheckpointGate } from "../checkpoints/gate.js";
import { CheckpointTracker } from "../checkpoints/tracker.js";
import { TaskStore } from "../store/task-store.js";
import { registerCheckpointCommands } from "./checkpoint-commands.js";
import { captureOutput } from "./test-support/capture-output.js";

let root: string;
let dataDir: string;
let workspace: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-checkpoint-cli-"));
  dataDir = join(root, "data");
  workspace = join(root, "project");
  await mkdir(workspace, { recursive: true });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

async function cairn(...args: string[]): Promise<string> {
  const program = new Command("cairn").exitOverride();
  registerCheckpointCommands(program, { dataDir: () => dataDir });
  const output = { stdout: "", stderr: "" };
  await captureOutput(output, () => program.parseAsync(args, { from: "user" }));
  return output.stdout;
}

/** A task with an initial checkpoint and one turn that edited a file. */
async function makeTask(): Promise<{ taskId: string; hashes: string[] }> {
  await writeFile(join(workspace, "notes.txt"), "before\n");
  const writer = await new TaskStore({ dataDir }).create({ task: "edit notes", workspace });
  const hashes: string[] = [];
  const gate = createCheckpointGate({
    tracker: new CheckpointTracker({ workspace, dataDir }),
    taskId: writer.taskId,
    position: () => writer.position(),
    onCreated: (hash) => {
      hashes.push(hash);
      writer.append({ kind: "ui", message: { id: hash, ts: 0, type: "say", say: "checkpoint_created", text: hash, partial: false, meta: { hash } } });
    },
    onWarning: (text) => {
      throw new Error(text);
    },
  });
  gate.startInitial();
  await gate.waitInitial();
  writer.append({ kind: "api", message: { role: "user", content: [{ type: "text", text: "edit notes" }] } });
  await writeFile(join(workspace, "notes.txt"), "after\n");
  gate.noteChanges([join(workspace, "notes.txt")]);
  await gate.commit("turn");
  await writer.close();
  return { taskId: writer.taskId, hashes };
}

describe("checkpoint commands", () => {
  it("cairn checkpoints lists a task's checkpoints newest first", async () => {
    const { taskId, hashes } = await makeTask();
    const lines = (await cairn("checkpoints", taskId)).trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${hashes[1]!.slice(0, 12)}\\s+.*turn$`));
    expect(lines[1]).toMatch(new RegExp(`^${hashes[0]!.slice(0, 12)}\\s+.*initial$`));
  });

  it("cairn diff shows the changes since the first checkpoint, and between two", async () => {
    const { taskId, hashes } = await makeTask();
    await writeFile(join(workspace, "extra.txt"), "x\n");
    const sinceStart = await cairn("diff", taskId);
    expect(sinceStart).toContain("A extra.txt\nM notes.txt\n");
    expect(sinceStart).toContain("-before\n+after");
    const between = await cairn("diff", taskId, hashes[0]!.slice(0, 8), hashes[1]!.slice(0, 8));
    expect(between).toContain("M notes.txt\n");
    expect(between).not.toContain("extra.txt");
  });

  it("cairn restore --both puts files and conversation back and says how to undo", async () => {
    const { taskId, hashes } = await makeTask();
    const output = await cairn("restore", taskId, hashes[0]!.slice(0, 10), "--both");
    expect(output).toMatch(/Files restored to checkpoint \w+: 1 written back, 0 removed\.\nTo undo: cairn restore \S+ \w{12} --files/);
    expect(output).toContain(`Continue it with: cairn resume ${taskId}`);
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("before\n");
    const loaded = await new TaskStore({ dataDir }).load(taskId);
    expect(loaded.apiHistory).toEqual([]);
    expect(loaded.uiMessages.map((message) => message.id)).toEqual([hashes[0]]);
  });

  it("cairn restore restores both by default (as /restore does) and takes at most one of --files, --task, --both", async () => {
    const { taskId, hashes } = await makeTask();
    await expect(cairn("restore", taskId, hashes[0]!, "--files", "--task")).rejects.toThrow(/at most one of --files/);
    const output = await cairn("restore", taskId, hashes[0]!);
    expect(output).toMatch(/Files restored to checkpoint/);
    expect(output).toContain(`Continue it with: cairn resume ${taskId}`);
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("before\n");
  });
});
