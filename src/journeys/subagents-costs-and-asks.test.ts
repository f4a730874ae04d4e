/**
 * Journey: subagents with costs and asks (docs/journeys.md, "The terminal
 * user"; issue 27). bin/cairn in tmux on a user's machine (the sandbox on, as
 * after an install) against the scripted model: run `npm run build` first.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { cairnBin, runCli } from "../cli/test-support/cli-harness.js";
import { startTmux, tmuxAvailable, type TmuxSession } from "../ui/tui/test-support/tmux.js";
import { conversationRequests, lastToolResult, messagesText, sandboxUsable, say, serveConversations } from "./test-support/model-turns.js";
import { until } from "../cli/test-support/until.js";
import { TaskStore } from "../store/task-store.js";
import type { TaskSummary } from "../store/types.js";
import { flat, typeLine } from "./test-support/terminal-journey.js";
import { makeUserMachine, type UserMachine } from "./test-support/user-machine.js";

const sandboxed = sandboxUsable("the journey 'subagents with costs and asks'");
if (!tmuxAvailable()) console.warn("SKIPPED the journey 'subagents with costs and asks': tmux is not installed");

const task = "Add VAT to the price module and find where prices are printed";
const explorePrompt = "EXPLORE: find every place that prints a price";
const writePrompt = "WRITE: make price() add 20% VAT and run the check";
const slowTask = "Regenerate the price table";
const slowPrompt = "SLOW: rebuild the price table";
const slowCommand = "sleep 2727";
const newPrice = "module.exports.price = (net) => Math.round(net * 120) / 100;";

// claude-sonnet-5-5 costs $2 per million tokens in and $10 per million out.
const parentTurn = { inputTokens: 10_000, outputTokens: 1_000 }; // $0.03
const childTurn = { inputTokens: 5_000, outputTokens: 1_000 }; // $0.02
const costing = (turn: ScenarioTurn, usage: ScenarioTurn["usage"]): ScenarioTurn => ({ ...turn, ...(usage === undefined ? {} : { usage }) });

let machine: UserMachine;
let server: ScriptedServer;

const provider = (): string[] => ["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-journey-subagents-0123456789"];
const cairn = (args: string[]): ReturnType<typeof runCli> => runCli(args, { env: machine.env, cwd: machine.workspace });
const git = (...args: string[]): string => execFileSync("git", args, { cwd: machine.workspace, env: machine.env, encoding: "utf8" });

/** This user's tasks in cairn's data folder, oldest first (children included: each has its own log). */
function stored(): Promise<TaskSummary[]> {
  return new TaskStore({ dataDir: machine.dataDir }).list();
}

/** The second task and its child, as stored. */
async function slowTasks(): Promise<{ parent: TaskSummary; child: TaskSummary }> {
  const tasks = await stored();
  return { parent: tasks.find((row) => row.title.startsWith(slowTask))!, child: tasks.find((row) => row.title.startsWith(slowPrompt))! };
}

function running(command: string): boolean {
  return spawnSync("pgrep", ["-f", command]).status === 0;
}

async function openCairn(args: string[]): Promise<TmuxSession> {
  return startTmux({ command: [process.execPath, cairnBin, ...args], cwd: machine.workspace, env: machine.terminal.env, unset: machine.terminal.unset, columns: 120, rows: 40 });
}

/** The number of a choice in the open menu (`2. No`). */
function choice(screen: string, label: string): string {
  const found = new RegExp(`(\\d)\\. ${label}\\b`).exec(screen);
  if (found === null) throw new Error(`no "${label}" in the menu:\n${screen}`);
  return found[1]!;
}

describe.skipIf(!sandboxed || !tmuxAvailable())("journey: subagents with costs and asks", () => {
  beforeAll(async () => {
    machine = await makeUserMachine({ project: "shop" });
    const { put, workspace } = machine;
    await put(join(workspace, "price.js"), "module.exports.price = (net) => net;\n");
    await put(join(workspace, "check.js"), 'const { price } = require("./price.js");\nconsole.log(`price of 100 is ${price(100)}`);\n');
    await put(join(workspace, "report.js"), 'const { price } = require("./price.js");\nconsole.log(`Total: ${price(42)}`);\n');
    await put(join(workspace, "package.json"), { name: "shop", version: "1.0.0", private: true });
    machine.commitAll("the shop");
    // The user wants to be asked before anything runs node (Claude Code's settings, read unchanged).
    await put(join(machine.claudeDir, "settings.json"), { permissions: { ask: ["Bash(node:*)"] } });
    server = await serveConversations([
      {
        match: task,
        turns: [costing(say.subagents([{ prompt: explorePrompt, agent: "explore" }, { prompt: writePrompt }]), parentTurn), costing(say.complete("VAT is in; prices are printed by report.js."), parentTurn)],
      },
      {
        match: explorePrompt,
        turns: [costing(say.search(".", "price\\("), childTurn), costing(say.command("echo report.js > found.txt"), childTurn), costing(say.complete("Prices are printed by report.js and check.js."), childTurn)],
      },
      {
        match: writePrompt,
        turns: [
          costing(say.write("price.js", newPrice), childTurn),
          costing(say.command("node check.js"), childTurn),
          costing(say.write("package.json", '{ "name": "shop", "version": "1.1.0", "private": true }'), childTurn),
          costing(say.complete("price() adds VAT; the check prints 120. The user refused the version bump."), childTurn),
        ],
      },
      {
        match: slowTask,
        turns: [say.subagents([{ prompt: slowPrompt }]), say.subagents([{ prompt: slowPrompt }]), say.complete("The price table is rebuilt.")],
      },
      { match: slowPrompt, turns: [say.command(slowCommand), say.complete("Rebuilt the table after the resume.")] },
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await machine?.cleanup();
  });

  it(
    "two children at once: the writer's asks name it, a refusal reaches it, its change is merged uncommitted; costs count parent and children everywhere; Esc stops a running child and the next message resumes it",
    { timeout: 120_000 },
    async () => {
      const ui = await openCairn([...provider(), "--max-cost", "0.5", task]);
      try {
        // The writer edits price.js in its own worktree: the ask names it.
        await ui.waitFor(/\+module\.exports\.price[\s\S]*\[subagent general-2\] Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 45_000 });
        // Its card counts what its first request cost while the ask waits (5,000 tokens in, 1,000 out).
        await ui.waitFor(/◆ general-2 · write_to_file price\.js · 6\.0k tokens · /, { timeoutMs: 5_000 });
        await ui.sendKeys("1");
        // Its command asks because of the user's rule, and says so.
        const command = flat(await ui.waitFor(/\[subagent general-2\] Run this command\?/, { timeoutMs: 30_000 }));
        expect(command).toMatch(/node check\.js/);
        expect(command).toMatch(/Bash\(node:\*\)/);
        await ui.sendKeys(choice(command, "Yes"));
        // The version bump is refused.
        const bump = await ui.waitFor(/package\.json[\s\S]*\[subagent general-2\] Allow this\?[\s\S]*\d\. No/, { timeoutMs: 30_000 });
        await ui.sendKeys(choice(bump, "No"));
        // The merge is the parent's question, with the diff; the workspace is untouched until it is answered.
        const merge = await ui.waitFor(/\[subagent general-2\] Merge its changes into the workspace \(price\.js\)\?[\s\S]*1\. Yes/, { timeoutMs: 30_000 });
        expect(merge).toMatch(/\+module\.exports\.price = \(net\) => Math\.round\(net \* 120\) \/ 100;/);
        expect(await readFile(join(machine.workspace, "price.js"), "utf8")).toBe("module.exports.price = (net) => net;\n");
        await ui.sendKeys("1");
        await ui.waitFor(/VAT is in[\s\S]*Done\?/, { timeoutMs: 30_000 });
        // The status line counts the children: $0.06 (parent) + $0.06 (explorer) + $0.08 (writer), and so does the budget left.
        await ui.waitFor(/↑55k ↓9\.0k \$0\.2000 · budget left: \$0\.30/, { timeoutMs: 5_000 });
        await ui.sendKeys("Enter");
        await ui.waitFor(/Done in \S+ · 55000 tokens in, 9000 out · \$0\.2000 · 2 subagents \$0\.1400/, { timeoutMs: 30_000 });
        const transcript = flat(await ui.captureAll());
        // The parent's call names both children it started, each with its type and prompt.
        expect(transcript).toContain(`● Subagents explore-1, general-2 explore-1 (explore): ${explorePrompt} general-2 (general): ${writePrompt}`);
        // The read-only child never asked: its write was refused by what it is.
        expect(transcript).not.toMatch(/\[subagent explore-1\]/);
        // Each child's end says what it spent, and what of it was refused.
        expect(transcript).toContain("Subagent explore-1 completed (18000 tokens, $0.0600, 1 refused).");
        expect(transcript).toContain("Subagent general-2 completed (24000 tokens, $0.0800, 1 refused).");

        // On disk: the merged change, uncommitted, and nothing else.
        expect(await readFile(join(machine.workspace, "price.js"), "utf8")).toBe(`${newPrice}\n`);
        expect(git("status", "--porcelain")).toBe(" M price.js\n");
        expect(git("log", "--oneline").trim().split("\n")).toHaveLength(1);
        expect(existsSync(join(machine.workspace, "found.txt"))).toBe(false);
        expect(JSON.parse(await readFile(join(machine.workspace, "package.json"), "utf8"))).toMatchObject({ version: "1.0.0" });

        // The next task's child runs a long command; Esc stops the child with the parent.
        await typeLine(ui, slowTask);
        await ui.waitFor(new RegExp(`◆ general-1 · execute_command ${slowCommand}`), { timeoutMs: 30_000 });
        await until(() => running(slowCommand), "the child's command to start");
        await ui.sendKeys("Escape");
        await ui.waitFor(/Stopped in /, { timeoutMs: 15_000 });
        await until(() => !running(slowCommand), "the child's command to be stopped", 10_000);
        const slow = await slowTasks();
        expect([slow.parent.status, slow.child.status]).toEqual(["aborted", "aborted"]);
        // The next message resumes the parent, whose model delegates again: the same child goes on.
        await typeLine(ui, "go on");
        const resumed = flat(await ui.waitFor(/The price table is rebuilt\.[\s\S]*Done\?/, { timeoutMs: 30_000 }));
        expect(resumed).toContain(`Subagent general-1 (general) resumed: task ${slow.child.taskId}`);
        await ui.sendKeys("Enter");
        await ui.waitFor(/Done in \S+ · [^\n]* · 1 subagent \$/, { timeoutMs: 15_000 });
        const after = await slowTasks();
        expect([after.parent.status, after.child.status]).toEqual(["completed", "completed"]);
        // The child went on in its own conversation, from its interrupted command, told it works in its own worktree.
        const child = conversationRequests(server, slowPrompt);
        expect(child).toHaveLength(2);
        expect(messagesText(child[1])).toMatch(new RegExp(`${slowCommand}[\\s\\S]*Response interrupted by user`));
        expect(lastToolResult(child[1])).toContain(`The working directory is '${join(machine.dataDir, "worktrees", slow.parent.taskId, "general-1")}'`);
      } finally {
        await ui.kill();
      }

      // What each model was told: the command ran in the writer's worktree, with its edit; the refusals were said.
      const writer = conversationRequests(server, writePrompt);
      expect(lastToolResult(writer[2])).toContain("price of 100 is 120");
      expect(lastToolResult(writer[3])).toContain("The user denied this operation; it did not run.");
      const explorer = conversationRequests(server, explorePrompt);
      expect(lastToolResult(explorer[2])).toContain("this agent is read-only");
      const parent = conversationRequests(server, task);
      // The parent's model reads the writer's report, and cairn's own count of what was refused.
      expect(messagesText(parent[1])).toMatch(/<subagent id=\\"general-2\\"[^>]* refused=\\"1\\">\\nprice\(\) adds VAT; the check prints 120\. The user refused the version bump\./);
      expect(messagesText(parent[1])).toContain('status=\\"merged\\"');

      // Afterwards, headless: the task's totals include the children, said apart; each child's log is reachable.
      const parentId = (await stored()).find((row) => row.title.startsWith(task))!.taskId;
      const shown = await cairn(["show", parentId]);
      expect(shown.status, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/55000 tokens in, 9000 out; \$0\.2000 · 2 subagents \$0\.1400/);
      expect(shown.stdout).toMatch(/explore-1 \(explore\) \S+: completed; 15000 tokens in, 3000 out; \$0\.0600/);
      const writerId = /general-2 \(general\) (\S+): completed; 20000 tokens in, 4000 out; \$0\.0800/.exec(shown.stdout)?.[1];
      expect(writerId).toBeDefined();
      const writerLog = await cairn(["show", writerId!]);
      expect(writerLog.status, writerLog.stderr).toBe(0);
      expect(writerLog.stdout).toContain(`Subagent general-2 of task ${parentId}`);
      expect(writerLog.stdout).toMatch(/node check\.js/);
      expect(writerLog.stdout).toMatch(/package\.json[^\n]*✗/);
    },
  );
});
