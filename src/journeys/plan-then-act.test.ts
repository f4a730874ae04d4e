/**
 * Journey: plan, then act with a checklist (docs/journeys.md, "The terminal
 * user"). bin/cairn in tmux against the scripted model: run `npm run build` first.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs } from "../cli/test-support/cli-fixture.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { completeTurn, quitWithCtrlC, say, typeLine, useJourneyTerminal } from "./test-support/terminal-journey.js";

const printLine = 'console.log(process.argv[2] + " items");';

const cli = useJourneyTerminal({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, "main.js"), `${printLine}\n`);
  },
});

if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'plan then act with a checklist' is skipped (install the tmux package)");

const checklist = (done: number): string => ["Add validate.js", "Call it from main.js", "Write the notes"].map((step, index) => `- [${index < done ? "x" : " "}] ${step}`).join("\n");

const withProgress = (tool: string, parameters: string, done: number): string => `<${tool}>\n${parameters}\n<task_progress>\n${checklist(done)}\n</task_progress>\n</${tool}>`;

const explanation = Array.from({ length: 14 }, (_, index) => `Line ${index + 1}: main.js now refuses a count that is not a whole number, and says why.`).join("\n");

describe.skipIf(!tmuxAvailable())("journey: plan, then act with a checklist", () => {
  it("a plan in plan mode, Tab at the plan to act, the checklist in the panel as the model works, a resize mid-stream leaves one copy of everything", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        say(withProgress("plan_mode_respond", "<response>\nThe plan:\n1. Add validate.js\n2. Call it from main.js\n3. Write the notes\n</response>", 0)),
        say(withProgress("write_to_file", "<path>validate.js</path>\n<content>\nexports.validate = (count) => Number.isInteger(Number(count));\n</content>", 1)),
        say(
          `${explanation}\n${withProgress(
            "replace_in_file",
            `<path>main.js</path>\n<diff>\n------- SEARCH\n${printLine}\n=======\nif (!require("./validate").validate(process.argv[2])) throw new Error("not a whole number");\n${printLine}\n+++++++ REPLACE\n</diff>`,
            2,
          )}`,
          { chunkSize: 10, delayMs: 40 },
        ),
        say(withProgress("write_to_file", "<path>NOTES.md</path>\n<content>\nmain.js validates its count.\n</content>", 3)),
        completeTurn("main.js validates its count"),
        completeTurn("hello there"),
      ],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "--plan", "validate the count main.js prints"]);
    await ui.waitFor(/The plan:[\s\S]*Tab to switch to act mode/, { timeoutMs: 60_000 });
    expect(await ui.capture()).toMatch(/^PLAN · /m);
    expect(JSON.stringify(server.requests[0]?.body)).toContain("PLAN MODE");

    // Tab at the plan: act mode, and cairn carries the plan out.
    await ui.sendKeys("Tab");
    await ui.waitFor(/validate\.js[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    const acting = await ui.capture();
    expect(acting).toMatch(/^ACT · /m);
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/approved the plan/);
    await ui.sendKeys("1");

    // The checklist panel follows the model's progress while the next answer streams.
    await ui.waitFor(/Line 2:[\s\S]*Checklist 1\/3/, { timeoutMs: 60_000 });
    for (const [columns, rows] of [
      [60, 30],
      [100, 30],
      [72, 26],
      [80, 30],
    ] as const) {
      await ui.resize(columns, rows);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // All of it while the answer was still streaming.
    expect(server.progress(2)?.completed).toBe(false);
    await ui.waitFor(/Edit main\.js[\s\S]*Checklist 2\/3[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    await ui.waitFor(/NOTES\.md[\s\S]*Checklist 3\/3[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    await ui.waitFor(/main\.js validates its count[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("Enter");
    const end = await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(end).toMatch(/Checklist 3\/3/);

    // One copy of each thing in the scrollback: no torn panels, no answer printed twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = await ui.captureAll();
    for (const panel of ["Checklist 1/3", "Checklist 2/3", "Checklist 3/3"]) expect(all.split(panel).length - 1, panel).toBeLessThanOrEqual(1);
    expect(all.match(/Line 14:/g) ?? []).toHaveLength(1);
    expect(all.match(/Line 1:/g) ?? []).toHaveLength(1);
    expect(all.match(/The plan:/g) ?? []).toHaveLength(1);
    // The checklist lives in its panel: its markdown is not printed into the history at each update.
    expect(all).not.toMatch(/^- \[[ x]\] /m);
    expect(await readFile(join(cli.sandbox.workspace, "main.js"), "utf8")).toContain('require("./validate")');
    expect(await readFile(join(cli.sandbox.workspace, "NOTES.md"), "utf8")).toBe("main.js validates its count.\n");

    // The next task has no checklist: the finished task's panel is not pinned over it.
    await typeLine(ui, "now say hello");
    const next = await ui.waitFor(/hello there[\s\S]*Done\?/, { timeoutMs: 60_000 });
    expect(next).not.toMatch(/Checklist 3\/3/);
    await ui.sendKeys("Enter");
    // The accepted completion has landed (a Ctrl+C before it would interrupt the task).
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
