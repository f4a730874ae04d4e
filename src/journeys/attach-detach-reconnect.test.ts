/**
 * Journey: a task followed from two terminals and a browser (docs/journeys.md,
 * "The terminal user"). The real `bin/cairn serve` (a child process) and
 * `bin/cairn attach` (in tmux) against the scripted model: run `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs } from "../cli/test-support/cli-fixture.js";
import { startServe } from "../cli/test-support/serve-process.js";
import { until } from "../cli/test-support/until.js";
import type { ServeProcess } from "../cli/test-support/serve-process.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { completeTurn, flat, replaceTurn, typeLine, useJourneyTerminal, writeFileTurn } from "./test-support/terminal-journey.js";

const cli = useJourneyTerminal({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, "greeting.txt"), "hello\n");
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", ...args], { cwd: sandbox.workspace, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "start");
  },
});

if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'a task followed from two terminals and a browser' is skipped (install the tmux package)");

const reportLines = 60;
const report = Array.from({ length: reportLines }, (_, index) => `Line ${index + 1}: checked the greeting module.`).join("\n");

/** The file's text, or undefined while it does not exist. */
function contentOf(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Polls the task's row until `check` holds. */
async function taskRow(serve: ServeProcess, taskId: string, check: (row: Record<string, unknown>) => boolean, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const answer = await serve.api("GET", `/api/tasks/${taskId}`);
    const row = (answer.body as { task?: Record<string, unknown> }).task ?? {};
    if (check(row)) return row;
    if (Date.now() > deadline) throw new Error(`the task never reached the state looked for: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!tmuxAvailable())("journey: a task followed from two terminals and a browser", () => {
  it("attach, approve, see a browser's answer, detach while it goes on, attach again with nothing lost, survive a killed server, resume and finish", { timeout: 240_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    const model = await cli.startServer({
      turns: [
        { ...replaceTurn("greeting.txt", "hello", "hello, world", "I will update the greeting first, then write the notes.\n"), chunkSize: 8, delayMs: 15 },
        writeFileTurn("notes.md", "# Notes\nthe greeting says hello, world", "Now the notes.\n"),
        { text: `${report}\n\nNext, the version.\n${writeFileTurn("version.txt", "2").text}`, chunkSize: 16, delayMs: 25 },
        // Resumed in plan mode (switched from terminal 2 before the server died): a plan first.
        { text: "<plan_mode_respond>\n<response>\nPlan: write version.txt again, then finish.\n</response>\n</plan_mode_respond>" },
        writeFileTurn("version.txt", "2", "Writing the version again after the interruption.\n"),
        completeTurn("greeting, notes and version done"),
      ],
    });
    const serveArgs = ["--data-dir", cli.sandbox.dataDir, ...anthropicArgs(model)];
    let serve = await startServe(cli, serveArgs);
    // The user starts the task from the browser (the web UI posts this).
    const started = await serve.api("POST", "/api/tasks", { prompt: "update the greeting", cwd: workspace }, "browser");
    expect(started.status).toBe(201);
    const taskId = (started.body as { taskId: string }).taskId;

    // Terminal 1: attached by the start of the task's id, the server found through server.json.
    const first = await cli.openCairn(["attach", taskId.slice(0, 10)]);
    await first.waitFor(/› update the greeting/, { timeoutMs: 60_000 });
    await first.waitFor(/I will update the greeting first/, { timeoutMs: 60_000 });
    const edit = flat(await first.waitFor(/Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 }));
    expect(edit).toMatch(/\+hello, world/);
    expect(edit).toMatch(/ACT · attached · .*Esc Esc stop · \^D detach/);
    await first.sendKeys("1");
    await first.waitFor(/✓ approved/, { timeoutMs: 30_000 });
    await until(() => contentOf(join(workspace, "greeting.txt")) === "hello, world\n", "the approved edit on disk");

    // The notes are approved in the browser: the menu leaves terminal 1, which shows the answer.
    await first.waitFor(/notes\.md[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    const asking = await taskRow(serve, taskId, (row) => typeof row["openAsk"] === "string");
    const answered = await serve.api("POST", `/api/tasks/${taskId}/answer`, { askId: asking["openAsk"], response: "yes" }, "browser");
    expect(answered.status).toBe(200);
    await first.waitFor(/Line 1:/, { timeoutMs: 60_000 });
    expect(await first.capture()).not.toMatch(/Allow this\?/);
    expect((await first.captureAll()).match(/✓ approved/g)).toHaveLength(2);
    await until(() => contentOf(join(workspace, "notes.md"))?.includes("hello, world") === true, "the notes the browser approved on disk");

    // Ctrl+D while the report streams: terminal 1 leaves, the task goes on.
    await first.waitFor(/Line 5:/, { timeoutMs: 60_000 });
    await first.sendKeys("C-d");
    expect(await first.waitForExit({ timeoutMs: 20_000 })).toBe(0);
    expect(flat(await first.captureAll())).toContain(`Detached from task ${taskId}: it goes on in the server. Attach again with: cairn attach ${taskId}`);
    const waiting = await taskRow(serve, taskId, (row) => typeof row["openAsk"] === "string");
    expect(waiting["running"]).toBe(true);
    expect(model.requests).toHaveLength(3);

    // Terminal 2, later: everything that happened meanwhile, each line once, and the open question.
    const second = await cli.openCairn(["attach", taskId]);
    await second.waitFor(/version\.txt[\s\S]*Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });
    // The transcript so far is printed above the question (just after it is first drawn).
    let replay = await second.captureAll();
    for (const deadline = Date.now() + 20_000; !replay.includes(`Line ${reportLines}:`) && Date.now() < deadline; replay = await second.captureAll()) await new Promise((resolve) => setTimeout(resolve, 100));
    for (let line = 1; line <= reportLines; line += 1) expect(replay.match(new RegExp(`Line ${line}:`, "g")), `Line ${line}`).toHaveLength(1);
    expect(replay.match(/› update the greeting/g)).toHaveLength(1);

    // Tab switches the task to plan through the server: the status line says so, and so does the task's row (what the browser reads).
    await second.sendKeys("Tab");
    await second.waitFor(/Plan mode: the model explores[\s\S]*PLAN · attached/, { timeoutMs: 20_000 });
    await taskRow(serve, taskId, (row) => row["mode"] === "plan");

    // The server dies (kill -9) while the question waits, and is started again (a new token, in server.json).
    await serve.kill("SIGKILL");
    await second.waitFor(/Lost the connection to the server/, { timeoutMs: 20_000 });
    serve = await startServe(cli, serveArgs, { port: serve.port });
    await second.waitFor(/Reconnected to the server/, { timeoutMs: 30_000 });
    // The interrupted task asks nothing any more; nothing was shown twice.
    await taskRow(serve, taskId, (row) => row["status"] === "interrupted" || row["running"] === false);
    expect(await second.capture()).not.toMatch(/1\. Yes/);
    expect((await second.captureAll()).match(/Line 60:/g)).toHaveLength(1);

    // A message resumes it, in plan mode as its log left it: the model plans; Tab approves the plan and switches to act.
    await typeLine(second, "go on");
    await second.waitFor(/Plan: write version\.txt again[\s\S]*PLAN · attached/, { timeoutMs: 60_000 });
    expect(JSON.stringify(model.requests[3]?.body)).toContain("go on");
    expect(JSON.stringify(model.requests[3]?.body)).toContain("# Tools (plan mode)");
    await second.sendKeys("Tab");
    // The version is approved here and the result accepted.
    await second.waitFor(/Writing the version again[\s\S]*Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });
    expect(flat(await second.capture())).toMatch(/ACT · attached/);
    expect(JSON.stringify(model.requests[4]?.body)).toContain("# Tools (act mode)");
    await second.sendKeys("1");
    // The server's task completes with its result (no client is asked to accept it).
    await second.waitFor(/Task completed[\s\S]*greeting, notes and version done[\s\S]*Done in/, { timeoutMs: 60_000 });
    await until(() => contentOf(join(workspace, "version.txt")) === "2\n", "the version on disk");
    await taskRow(serve, taskId, (row) => row["status"] === "completed");
    // /undo in the attached terminal takes the last step back, through the server.
    await typeLine(second, "/undo");
    await second.waitFor(/Undid the last step[\s\S]*removed version\.txt/, { timeoutMs: 30_000 });
    expect(existsSync(join(workspace, "version.txt"))).toBe(false);
    await second.sendKeys("C-d");
    expect(await second.waitForExit({ timeoutMs: 20_000 })).toBe(0);

    // The task's log has it all, once: cairn show prints the transcript.
    const shown = await cli.run(["show", taskId]);
    expect(shown.status).toBe(0);
    expect(shown.stdout.match(/Line 60:/g)).toHaveLength(1);
    expect(shown.stdout).toContain("go on");
    expect(shown.stdout).toContain("greeting, notes and version done");
  });
});
