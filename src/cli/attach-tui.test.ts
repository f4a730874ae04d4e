/**
 * Two terminals attached to one task of `cairn serve` (tmux, bin/cairn: run
 * `npm run build` first): an answer given in one leaves the other's menu, Esc
 * twice in one stops the task for both, `/detach` leaves.
 */
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { startServe } from "./test-support/serve-process.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the terminal tests of cairn attach are skipped (install the tmux package)");

const write = (path: string, content: string, before: string) => ({ text: `${before}\n<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const long = Array.from({ length: 200 }, (_, index) => `Paragraph ${index + 1} of the long explanation.`).join("\n\n");

describe.skipIf(!tmuxAvailable())("cairn attach: two terminals on one task (tmux)", () => {
  it("an answer in one terminal leaves the other's menu; Esc once asks, Esc again stops the task for both; /detach leaves", { timeout: 180_000 }, async () => {
    const model = await cli.startServer({ turns: [write("a.txt", "a", "First file."), { text: long, chunkSize: 8, delayMs: 40 }] });
    const serve = await startServe(cli, ["--data-dir", cli.sandbox.dataDir, ...anthropicArgs(model)]);
    const started = await serve.api("POST", "/api/tasks", { prompt: "write a and explain", cwd: cli.sandbox.workspace });
    const taskId = (started.body as { taskId: string }).taskId;
    const left = await cli.openCairn(["attach", taskId]);
    const right = await cli.openCairn(["attach", "--server", `${serve.url}/?token=${serve.token}`, taskId]);
    await left.waitFor(/a\.txt[\s\S]*Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });
    await right.waitFor(/a\.txt[\s\S]*Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });

    await right.sendKeys("1");
    await right.waitFor(/✓ approved/, { timeoutMs: 30_000 });
    await left.waitFor(/✓ approved/, { timeoutMs: 30_000 });
    await left.waitFor(/Paragraph 2 of/, { timeoutMs: 60_000 });
    expect(await left.capture()).not.toMatch(/Allow this\?/);

    await left.sendKeys("Escape");
    await left.waitFor(/Esc again stops the task/, { timeoutMs: 10_000 });
    const before = model.chunksSent(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(model.chunksSent(1)).toBeGreaterThan(before);
    await left.sendKeys("Escape");
    await model.waitForClientClose(1);
    await left.waitFor(/Stopped in/, { timeoutMs: 30_000 });
    await right.waitFor(/Stopped in/, { timeoutMs: 30_000 });
    const row = await serve.api("GET", `/api/tasks/${taskId}`);
    expect((row.body as { task: { status: string; running: boolean } }).task).toMatchObject({ status: "aborted", running: false });

    await right.sendText("/detach");
    await right.sendKeys("Enter");
    expect(await right.waitForExit({ timeoutMs: 20_000 })).toBe(0);
    expect((await right.captureAll()).replace(/\s+/g, " ")).toContain(`Detached from task ${taskId}`);
    await left.sendKeys("C-d");
    expect(await left.waitForExit({ timeoutMs: 20_000 })).toBe(0);
  });
});
