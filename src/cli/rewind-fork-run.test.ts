/**
 * Rewind and fork through the real CLI: a task of two messages, each of which
 * changed files, taken back to before the second (conversation and files), then
 * continued; forked before the second into a git worktree, the source's
 * workspace untouched; and a rewind after a compaction, which must give the
 * model the conversation as it was, not the summary.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { TaskStore } from "../store/task-store.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const write = (path: string, content: string): ScenarioTurn => ({ text: `Writing ${path}.\n<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const complete = (result: string): ScenarioTurn => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const requestText = (server: ScriptedServer, index: number): string => JSON.stringify(server.requests[index]?.body ?? "");

async function run(args: string[]): Promise<{ stdout: string; events: Array<Record<string, unknown>> }> {
  const result = await cli.run(args);
  expect(result.status, `${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result;
}

/** A task: "make a.txt" wrote a.txt; then "now b" rewrote a.txt and wrote b.txt. */
async function twoMessageTask(): Promise<string> {
  const first = await cli.startServer({ turns: [write("a.txt", "one"), complete("made a")] });
  const started = await run(["run", "--json", "--yes", ...anthropicArgs(first), "make a.txt"]);
  const taskId = String(started.events[0]?.["taskId"]);
  const second = await cli.startServer({ turns: [write("a.txt", "one, changed"), write("b.txt", "two"), complete("made b")] });
  await run(["resume", "--json", "--yes", ...anthropicArgs(second), taskId, "now b"]);
  expect(await readFile(join(cli.sandbox.workspace, "b.txt"), "utf8")).toBe("two\n");
  return taskId;
}

describe("rewind and fork a task (real CLI, real checkpoints, real git)", () => {
  it("rewind lists your messages, takes the conversation and the files back to before one, and the task goes on from there", async () => {
    const taskId = await twoMessageTask();
    const listed = await run(["rewind", taskId]);
    expect(listed.stdout).toMatch(/ {2}1 {2}\d\d:\d\d {2}make a\.txt\n {2}2 {2}\d\d:\d\d {2}now b\n/);

    const rewound = await run(["rewind", taskId, "--to", "2"]);
    expect(rewound.stdout).toContain("Conversation taken back to before your message 2");
    expect(rewound.stdout).toMatch(/Files restored to checkpoint \w{12}: 1 written back, 1 removed/);
    expect(await readFile(join(cli.sandbox.workspace, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(cli.sandbox.workspace, "b.txt"))).toBe(false);
    const shown = (await run(["show", taskId])).stdout;
    expect(shown).toContain("made a");
    expect(shown).not.toContain("now b");

    const third = await cli.startServer({ turns: [complete("went another way")] });
    await run(["resume", "--json", "--yes", ...anthropicArgs(third), taskId, "instead, c"]);
    const sent = requestText(third, 0);
    expect(sent).toContain("instead, c");
    expect(sent).toContain("made a");
    expect(sent).not.toContain("now b");
    expect(sent).not.toContain("b.txt");

    // The rewind can itself be undone: the files it replaced were checkpointed first.
    const undo = /cairn restore \S+ (\w{12}) --files/.exec(rewound.stdout)?.[1];
    await run(["restore", taskId, undo!, "--files"]);
    expect(await readFile(join(cli.sandbox.workspace, "b.txt"), "utf8")).toBe("two\n");
  }, 60_000);

  it("fork before a message into a git worktree: the fork has the files of that moment, the source's workspace is untouched, and the fork goes on in its worktree", async () => {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: cli.sandbox.workspace, stdio: "pipe" });
    git("init", "-q");
    await writeFile(join(cli.sandbox.workspace, "README.md"), "readme\n");
    git("add", "-A");
    git("commit", "-qm", "start");
    const taskId = await twoMessageTask();

    const forked = await run(["fork", taskId, "--at", "2", "--worktree", "--json"]);
    const outcome = JSON.parse(forked.stdout) as { taskId: string; workspace: string; worktree: { path: string; branch: string } };
    expect(outcome.worktree.branch).toBe(`cairn/fork/${outcome.taskId}`);
    expect(await readFile(join(outcome.workspace, "a.txt"), "utf8")).toBe("one\n");
    expect(await readFile(join(outcome.workspace, "README.md"), "utf8")).toBe("readme\n");
    expect(existsSync(join(outcome.workspace, "b.txt"))).toBe(false);
    expect(await readFile(join(cli.sandbox.workspace, "b.txt"), "utf8")).toBe("two\n");

    const store = new TaskStore({ dataDir: cli.sandbox.dataDir });
    const fork = await store.load(outcome.taskId);
    expect(fork.meta.forkedFrom).toEqual({ taskId, at: 2 });
    expect(fork.meta.workspace).toBe(outcome.workspace);
    expect(fork.uiMessages.map((message) => message.text)).toContain("make a.txt");
    expect(fork.uiMessages.map((message) => message.text)).not.toContain("now b");

    const next = await cli.startServer({ turns: [write("c.txt", "three"), complete("c in the fork")] });
    await run(["resume", "--json", "--yes", "--cwd", outcome.workspace, ...anthropicArgs(next), outcome.taskId, "write c"]);
    expect(await readFile(join(outcome.workspace, "c.txt"), "utf8")).toBe("three\n");
    expect(existsSync(join(cli.sandbox.workspace, "c.txt"))).toBe(false);
    expect(requestText(next, 0)).not.toContain("now b");

    // Both tasks are kept, and the family tree is shown.
    expect((await run(["show", outcome.taskId])).stdout).toContain(`Forked from ${taskId} (before message 2)`);
    expect((await run(["show", taskId])).stdout).toContain(`Forks: ${outcome.taskId}`);
  }, 60_000);

  it("a rewind after a compaction gives the model the conversation as it was before the message, not the summary; a fork of it goes on with another provider", async () => {
    const taskId = await twoMessageTask();
    const store = new TaskStore({ dataDir: cli.sandbox.dataDir });
    const before = (await store.load(taskId)).apiHistory;
    // A compaction as cairn writes it: the conversation continues from a summary.
    const { writer } = await store.open(taskId);
    writer.appendEntry({ kind: "api_compact", reason: "manual", messages: [{ role: "user", content: [{ type: "text", text: "SUMMARY of everything" }] }] });
    await writer.close();

    await run(["rewind", taskId, "--to", "2", "--conversation"]);
    const rewound = (await store.load(taskId)).apiHistory;
    expect(JSON.stringify(rewound)).not.toContain("SUMMARY");
    expect(JSON.stringify(rewound)).toContain("make a.txt");
    expect(rewound.length).toBeLessThan(before.length);
    // Only the conversation: b.txt stays.
    expect(await readFile(join(cli.sandbox.workspace, "b.txt"), "utf8")).toBe("two\n");

    const forked = JSON.parse((await run(["fork", taskId, "--json"])).stdout) as { taskId: string };
    expect((await store.load(forked.taskId)).apiHistory).toEqual(rewound);

    // The fork goes on with another provider: the conversation crosses in OpenAI's format.
    const openai = await cli.startServer({ turns: [complete("on OpenAI now")] });
    await run(["resume", "--json", "--yes", "--provider", "openai", "--base-url", `${openai.url}/v1`, "--api-key", "test-key", forked.taskId, "go on"]);
    const sent = (openai.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(sent[0]?.role).toBe("system");
    expect(JSON.stringify(sent)).toContain("make a.txt");
    expect(JSON.stringify(sent)).toContain("go on");
    expect((await store.load(forked.taskId)).status).toBe("completed");
  }, 60_000);
});
