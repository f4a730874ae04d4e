/**
 * Journey: interrupt and resume (docs/journeys.md, "The terminal user").
 * bin/cairn in tmux against the scripted model: run `npm run build` first.
 */
import { describe, expect, it } from "vitest";
import { anthropicArgs } from "../cli/test-support/cli-fixture.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { completeTurn, flat, quitWithCtrlC, useJourneyTerminal } from "./test-support/terminal-journey.js";

const cli = useJourneyTerminal();

if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'interrupt and resume' is skipped (install the tmux package)");

const longAnswer = (topic: string, lines: number): string => Array.from({ length: lines }, (_, index) => `${topic} ${index + 1}: the port keeps the same module layout as before.`).join("\n\n");
/** A long markdown report streamed as fast as the server can send it: every line must reach the scrollback once, in order. */
const reportLines = 1200;
const report = `## What changed\n\n${Array.from({ length: reportLines }, (_, index) => `- item ${index + 1}: **ported** \`module${index + 1}.ts\` and its test`).join("\n")}\n\n`;

describe.skipIf(!tmuxAvailable())("journey: interrupt and resume", () => {
  it("Esc stops a streaming answer at once and keeps its text and what the user typed; the new direction goes on; Ctrl+C stops too; the task completes and the log has it all", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { text: longAnswer("Paragraph", 40), chunkSize: 8, delayMs: 30 },
        { text: longAnswer("Step", 40), chunkSize: 8, delayMs: 30 },
        { text: `${report}${completeTurn("ported to TypeScript instead").text}`, chunkSize: 16 },
      ],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "port the tool to Python"]);
    await ui.waitFor(/Paragraph 2:/, { timeoutMs: 60_000 });

    // Typing while the answer streams: the text stays in the input, the answer goes on.
    await ui.sendText("no wait, use TypeScript");
    await ui.waitFor(/Paragraph 4:/, { timeoutMs: 30_000 });
    expect(await ui.capture()).toMatch(/› no wait, use TypeScript/);

    await ui.sendKeys("Escape");
    const pressedAt = Date.now();
    await server.waitForClientClose(0);
    const stopped = await ui.waitFor(/interrupted/i, { timeoutMs: 10_000 });
    expect(Date.now() - pressedAt).toBeLessThan(3_000);
    const framesAtStop = server.chunksSent(0);
    const lastShown = Math.max(...[...(await ui.captureAll()).matchAll(/Paragraph (\d+):/g)].map((match) => Number(match[1])));
    expect(lastShown).toBeGreaterThanOrEqual(4);
    expect(lastShown).toBeLessThan(40);
    // What the user typed is still there, ready to send.
    expect(stopped).toMatch(/› no wait, use TypeScript/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.chunksSent(0)).toBe(framesAtStop);

    await ui.sendText(" instead of Python");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Step 2:/, { timeoutMs: 60_000 });
    // The model got the partial answer and the new direction in its next request.
    const next = JSON.stringify(server.requests[1]?.body);
    expect(next).toContain("Paragraph 3:");
    expect(next).toContain("no wait, use TypeScript instead of Python");

    // Ctrl+C once stops the step as Esc does (a second press would quit).
    await ui.sendKeys("C-c");
    await server.waitForClientClose(1);
    const second = await ui.waitFor(/Press Ctrl\+C again/, { timeoutMs: 10_000 });
    // Both stops are in the scrollback (the second notice may be drawn just after the status line's hint).
    const stops = async (): Promise<number> => flat(await ui.captureAll()).match(/interrupted/gi)?.length ?? 0;
    for (const deadline = Date.now() + 10_000; (await stops()) < 2 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await stops()).toBeGreaterThanOrEqual(2);
    expect(second).toMatch(/Step \d+:/);
    await ui.sendText("go on and finish");
    await ui.sendKeys("Enter");
    await ui.waitFor(/ported to TypeScript instead[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    const scrollback = await ui.captureAll();
    // The fast report is in the scrollback whole: each line once, in order, its markdown drawn (bold and code marks gone).
    const items = [...scrollback.matchAll(/• item (\d+): ported module\d+\.ts and its test/g)].map((match) => Number(match[1]));
    expect(items).toEqual(Array.from({ length: reportLines }, (_, index) => index + 1));
    const screen = flat(scrollback);
    expect(screen).toMatch(/› no wait, use TypeScript instead of Python/);
    expect(screen).toMatch(/› go on and finish/);
    expect(await quitWithCtrlC(ui)).toBe(0);

    const [task] = JSON.parse((await cli.run(["history", "--json"])).stdout) as Array<{ taskId: string; status: string }>;
    expect(task!.status).toBe("completed");
    const log = (await cli.run(["show", task!.taskId])).stdout;
    for (const part of ["port the tool to Python", `Paragraph ${lastShown}:`, "no wait, use TypeScript instead of Python", "Step 2:", "go on and finish", "ported to TypeScript instead"]) {
      expect(log).toContain(part);
    }
    expect(log.indexOf("go on and finish")).toBeLessThan(log.indexOf("ported to TypeScript instead"));
    expect(log).not.toContain("Paragraph 40:");
    // Each request in the order it was made, with what it cost and how it ended: the stopped one before its answer.
    const stoppedRequest = /api_req_started\s+\d+ tokens in, \d+ out, \$[\d.]+ \(user cancelled\)/.exec(log);
    expect(stoppedRequest, log).not.toBeNull();
    expect(log.indexOf(stoppedRequest![0])).toBeLessThan(log.indexOf("Paragraph 2:"));
    // The log keeps the answer as far as it streamed: the very text the model was given back.
    const messages = (server.requests[1]?.body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }).messages;
    const given = messages
      .find((message) => message.role === "assistant")!
      .content.map((block) => block.text ?? "")
      .join("");
    const shownTask = JSON.parse((await cli.run(["show", task!.taskId, "--json"])).stdout) as { messages: Array<{ type: string; say?: string; text: string }> };
    const logged = shownTask.messages.find((message) => message.say === "text")!.text;
    expect(given).toMatch(/\[Response interrupted by user\]$/);
    expect(given.replace(/\s*\[Response interrupted by user\]$/, "")).toBe(logged);
    // ...and the screen showed it up to its last word when it stopped.
    expect(stopped).toContain(logged.trimEnd().split("\n").at(-1)!);
  });
});
