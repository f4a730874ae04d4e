/**
 * Journey: a long task that compacts and is resumed (docs/journeys.md,
 * "Headless: CI, scripts, editors, fleets"; issue 27). A user whose model has
 * a small context window (their config's `models` override) runs a long
 * headless task; cairn condenses the conversation mid-task, the user stops it
 * with Ctrl+C, and resumes it with a follow-up. Runs bin/cairn (dist/):
 * `npm run build` first.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoggedRequest, ScriptedServer } from "../llm/scripted/server.js";
import { cairnBin, runCli, startCli } from "../cli/test-support/cli-harness.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { flat, quitWithCtrlC, typeLine } from "./test-support/terminal-journey.js";
import { messagesText, say, sandboxUsable, serveConversations, summaryRequests } from "./test-support/model-turns.js";
import { makeUserMachine, type UserMachine } from "./test-support/user-machine.js";

const sandboxed = sandboxUsable("the long task that compacts and is resumed");

const task = "Document each ledger module in docs/ and link the docs from the README";
const followUp = "go on and finish";
const modules = ["accounts", "journal", "reports"];

/** A module of about 9,000 characters: three of them fill the user's small window. */
const moduleSource = (name: string): string =>
  `${Array.from({ length: 110 }, (_, line) => `export const ${name}Rule${line} = (entry) => entry.amount * ${line + 1} + ${name.length}; // ${name}-original-${line}`).join("\n")}\n`;

/** What the model writes, file by file: before the compaction, after it, and after the resume. */
const written = {
  "docs/accounts.md": "# accounts\n\nOpening and closing accounts.",
  "docs/journal.md": "# journal\n\nPosting entries.",
  "docs/reports.md": "# reports\n\nBalances and statements.",
  "docs/index.md": "# docs\n\nOne page per module.",
};
const readmeLinks = "- [accounts](docs/accounts.md)\n- [journal](docs/journal.md)";
const summaryText = "## Task\nDocument each ledger module.\n## Files\nsrc/accounts.js, src/journal.js read; docs/accounts.md, docs/journal.md written.\n## Next step\nLink the docs from README.md (summary one).";
/** What the summary request costs, told apart from the 10 tokens in and 10 out of every other answer. */
const summaryUsage = { inputTokens: 4_321, outputTokens: 321 };
/** The user's price for their model (USD per million tokens), from their config. */
const price = { input: 3, output: 15 };
/**
 * The answer the user interrupts: long, and slow enough to be mid-stream when Ctrl+C comes. It is
 * billed all the same, for what the API counted at its start: its input, and the one output token
 * its first event reports (its full output, at its end, never comes).
 */
const slowAnswer = { text: Array.from({ length: 60 }, (_, line) => `Checking the cross-links, part ${line + 1}.`).join("\n"), chunkSize: 20, delayMs: 40, usage: { inputTokens: 2_345, outputTokens: 500 } };
const interruptedUsage = { inputTokens: 2_345, outputTokens: 1 };

let machine: UserMachine;
let server: ScriptedServer;
let taskId = "";
let first: { status: number; stdout: string; stderr: string };
let resumed: Awaited<ReturnType<typeof runCli>>;

const cairn = (...args: string[]): ReturnType<typeof runCli> => runCli(args, { env: machine.env, cwd: machine.workspace });
const model = (): string[] => ["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-journey-ledger-0123456789"];
const mainRequests = (): LoggedRequest[] => server.requests.filter((request) => request.route === undefined);
const summaryRequestsSent = (): LoggedRequest[] => server.requests.filter((request) => request.route !== undefined);
const bodyText = (request: LoggedRequest | undefined): string => JSON.stringify(request?.body ?? "");
const onDisk = (path: string): Promise<string> => readFile(join(machine.workspace, path), "utf8");

/** The user's run, stopped with Ctrl+C once the answer after the compaction is streaming. */
async function runUntilInterrupted(interruptedRequest: number): Promise<typeof first> {
  const run = startCli(["run", ...model(), "--yes", task], { env: machine.env, cwd: machine.workspace });
  await Promise.race([server.waitForChunks(interruptedRequest, 5), run.exit]);
  run.child.kill("SIGINT");
  const status = await run.exit;
  return { status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(!sandboxed)("A long task that compacts and is resumed", () => {
  beforeAll(async () => {
    machine = await makeUserMachine({ project: "ledger" });
    const { put, workspace, cairnConfigDir } = machine;
    for (const name of modules) await put(join(workspace, "src", `${name}.js`), moduleSource(name));
    await put(join(workspace, "README.md"), "# ledger\n\nA small double-entry ledger.\n\n## Docs\n\n(none yet)\n");
    machine.commitAll("ledger");
    // A model with a small window, as for a local model: the user's own config, nothing else.
    await put(join(cairnConfigDir, "config.json"), {
      retry: { delaysMs: [10, 20, 40] },
      models: { "claude-sonnet-5-5": { contextWindow: 13_000, maxOutputTokens: 2_000, inputPrice: price.input, outputPrice: price.output } },
    });
    const turns = [
      say.read("src/accounts.js"),
      say.write("docs/accounts.md", written["docs/accounts.md"]),
      say.read("src/journal.js"),
      say.write("docs/journal.md", written["docs/journal.md"]),
      say.read("src/reports.js"),
      // The window is full here: cairn condenses before this request.
      say.edit("README.md", "(none yet)", readmeLinks),
      say.write("docs/reports.md", written["docs/reports.md"]),
      slowAnswer,
      // After the resume.
      say.edit("README.md", readmeLinks, `${readmeLinks}\n- [reports](docs/reports.md)`),
      say.write("docs/index.md", written["docs/index.md"]),
      say.complete("Documented every ledger module in docs/ and linked them from the README."),
      // In the terminal, after /uncompact.
      say.complete("The README links every page; nothing else to add."),
    ];
    const summaries = [{ text: summaryText, usage: summaryUsage }, { text: summaryText.replace("(summary one)", "(summary two)") }];
    server = await serveConversations([{ match: task, turns }], [summaryRequests(summaries)]);
    first = await runUntilInterrupted(turns.indexOf(slowAnswer));
    taskId = /^task (\S+)$/m.exec(first.stderr)?.[1] ?? "";
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await machine?.cleanup();
  });

  it("cairn condenses the conversation mid-task: the summary request gets the old turns, and the next request carries the summary instead of the oldest file", () => {
    const [summary, ...more] = summaryRequestsSent();
    expect(more, "one compaction, not one before every request").toHaveLength(0);
    const position = server.requests.indexOf(summary!);
    const before = server.requests[position - 1];
    const after = server.requests[position + 1];
    // The summary request offers no tools and holds the turns it condenses.
    expect((summary!.body as Record<string, unknown>)["tools"]).toBeUndefined();
    expect(bodyText(summary)).toContain("accounts-original-0");
    expect(bodyText(before)).toContain("accounts-original-0");
    // The request after it: the task, the summary, and not the oldest file's content any more.
    expect(after?.route).toBeUndefined();
    expect(bodyText(after)).toContain(task);
    expect(bodyText(after)).toContain("<conversation_summary>");
    expect(bodyText(after)).toContain("(summary one)");
    expect(bodyText(after)).not.toContain("accounts-original-");
    const messagesOf = (request: LoggedRequest | undefined): string => messagesText(request?.body as Record<string, unknown>);
    expect(messagesOf(after).length).toBeLessThan(messagesOf(before).length);
    // The user saw it happen, with why: it left room to work (less than half of what was there).
    const [, tokensBefore = "", tokensAfter = ""] = /Condensed \d+ earlier messages into a summary \(the conversation neared the context window; about ([\d,]+) → ([\d,]+) tokens\)/.exec(first.stderr) ?? [];
    const count = (text: string): number => Number(text.replace(/,/g, ""));
    expect(count(tokensAfter), first.stderr).toBeGreaterThan(0);
    expect(count(tokensAfter)).toBeLessThan(count(tokensBefore) / 2);
    expect(first.stderr).toContain("(summary one)");
  });

  it("Ctrl+C after the compaction stops the task with exit status 130 and says how to resume it; the answer so far is on stdout", () => {
    expect(first.status, first.stderr).toBe(130);
    expect(taskId).not.toBe("");
    expect(first.stderr).toContain(`cairn: task interrupted; resume it with: cairn resume ${taskId}`);
    // Its summary line counts the answers of this run, the summary request and what the interrupted answer was billed.
    const answered = mainRequests().length - 1;
    const tokensIn = answered * 10 + summaryUsage.inputTokens + interruptedUsage.inputTokens;
    const tokensOut = answered * 10 + summaryUsage.outputTokens + interruptedUsage.outputTokens;
    expect(first.stderr.trimEnd().split("\n").at(-1)).toMatch(new RegExp(`^aborted · ${answered + 1} turns · ${tokensIn.toLocaleString("en-US")} tokens in · ${tokensOut} out · `));
    expect(first.stdout).toMatch(/^Checking the cross-links, part 1\./);
    expect(first.stdout).not.toContain("part 60.");
  });

  it("cairn resume with a follow-up continues from the compacted conversation, with the follow-up and the interrupted answer, and completes", async () => {
    const sentBefore = server.requests.length;
    resumed = await cairn("resume", taskId, ...model(), "--yes", followUp);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("Documented every ledger module in docs/ and linked them from the README.");
    const next = server.requests[sentBefore];
    expect(next?.route).toBeUndefined();
    const text = bodyText(next);
    // It starts from the summary and what came after it, not from the old turns.
    const messages = (next?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(JSON.stringify(messages[0])).toContain("<conversation_summary>");
    expect(text).toContain("(summary one)");
    expect(text).not.toContain("accounts-original-");
    // What came after the summary: the turns since, the interrupted answer as far as it went, the follow-up.
    expect(text).toContain("Balances and statements.");
    expect(text).toContain("Checking the cross-links, part 1.");
    expect(text).not.toContain("part 60.");
    expect(text).toContain(followUp);
    // The summary was enough: no further compaction.
    expect(summaryRequestsSent()).toHaveLength(1);
  });

  it("every file written before and after the compaction and the resume is on disk, and the task's checkpoints span both runs", async () => {
    for (const [path, content] of Object.entries(written)) expect(await onDisk(path), path).toBe(`${content}\n`);
    expect(await onDisk("README.md")).toBe(`# ledger\n\nA small double-entry ledger.\n\n## Docs\n\n${readmeLinks}\n- [reports](docs/reports.md)\n`);
    const checkpoints = JSON.parse((await cairn("checkpoints", taskId, "--json")).stdout) as Array<{ hash: string; reason: string }>;
    // A checkpoint after every step that changed a file (six: four before the interruption, two after the resume), one at each start.
    expect(checkpoints.filter((checkpoint) => checkpoint.reason === "turn")).toHaveLength(6);
    expect(checkpoints.filter((checkpoint) => checkpoint.reason === "initial")).toHaveLength(2);
    const diff = await cairn("diff", taskId);
    expect(diff.status, diff.stderr).toBe(0);
    for (const path of Object.keys(written)) expect(diff.stdout).toContain(`A ${path}\n`);
    expect(diff.stdout).toContain("M README.md\n");
  });

  it("cairn show has the whole transcript in order, and the totals of both runs include the summary request", async () => {
    const shown = await cairn("show", taskId);
    expect(shown.status, shown.stderr).toBe(0);
    const log = shown.stdout;
    const order = [
      task,
      "Read src/accounts.js",
      "Create docs/journal.md",
      "Condensed",
      "(summary one)",
      "Edit README.md",
      "Create docs/reports.md",
      "Checking the cross-links, part 1.",
      "Task interrupted",
      followUp,
      "Create docs/index.md",
      "Documented every ledger module",
    ];
    const positions = order.map((part) => log.indexOf(part));
    for (const [index, part] of order.entries()) expect(positions[index], part).toBeGreaterThan(index === 0 ? -1 : positions[index - 1]!);
    // Every answer, the summary and what the interrupted answer was billed: the totals of both runs.
    const answered = mainRequests().length - 1;
    const tokensIn = answered * 10 + summaryUsage.inputTokens + interruptedUsage.inputTokens;
    const tokensOut = answered * 10 + summaryUsage.outputTokens + interruptedUsage.outputTokens;
    const cost = `$${((tokensIn * price.input + tokensOut * price.output) / 1e6).toFixed(4)}`;
    expect(log).toContain(`(completed; ${tokensIn} tokens in, ${tokensOut} out; ${cost})`);
    const summaryLine = resumed.stderr.trimEnd().split("\n").at(-1);
    expect(summaryLine).toMatch(new RegExp(`^completed · 3 turns · ${tokensIn.toLocaleString("en-US")} tokens in · ${tokensOut} out · \\${cost} · `));
  });

  it.skipIf(!tmuxAvailable())(
    "in the terminal, /uncompact on the resumed task brings back the conversation from before the summary: the next message condenses it again, from the full history",
    { timeout: 60_000 },
    async () => {
      const ui = await startTmux({ command: [process.execPath, cairnBin, ...model()], cwd: machine.workspace, env: machine.terminal.env, unset: machine.terminal.unset, columns: 100, rows: 40 });
      try {
        await ui.waitFor(/ACT ·/, { timeoutMs: 30_000 });
        await typeLine(ui, `/resume ${taskId}`);
        await ui.waitFor(/Documented every ledger module/, { timeoutMs: 15_000 });
        await typeLine(ui, "/uncompact");
        const restored = flat(await ui.waitFor(/Restored the conversation[\s\S]*compact it again\./, { timeoutMs: 15_000 }));
        expect(restored).toMatch(/Restored the conversation as it was before the last compaction \(\d+ messages\)/);
        await typeLine(ui, "anything else to link?");
        await ui.waitFor(/nothing else to add[\s\S]*Done\?/, { timeoutMs: 30_000 });
        // The restored conversation is over the budget again: it is condensed again, from the first module on.
        const [, again] = summaryRequestsSent();
        expect(bodyText(again)).toContain("accounts-original-0");
        expect(bodyText(mainRequests().at(-1))).toContain("(summary two)");
        expect(bodyText(mainRequests().at(-1))).toContain("anything else to link?");
        expect(flat(await ui.captureAll())).toContain("(summary two)");
        expect(await quitWithCtrlC(ui)).toBe(0);
      } finally {
        await ui.kill();
      }
    },
  );
});
