/**
 * The sandbox default through the real CLI: on wherever bubblewrap works
 * (a write outside the workspace fails, nothing is said); off explicitly, every
 * run says in one line what that means; where bubblewrap cannot run, cairn says
 * so once and asks before commands that are not known read-only, even with --yes.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkBubblewrap } from "../security/sandbox.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { cairnBin, runCli, startCli } from "./test-support/cli-harness.js";
import { until } from "./test-support/until.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { pathWithoutBubblewrap } from "../test-support/path-without-bubblewrap.js";
import { pgrep } from "./test-support/subagent-runs.js";

/** Whether a process runs exactly `commandLine`. */
const commandRuns = (commandLine: string): boolean => pgrep(`^${commandLine}$`) !== "";

const bubblewrap = checkBubblewrap();
if (!bubblewrap.ok) console.warn(`SKIPPED the sandboxed runs: bubblewrap (Debian package "bubblewrap") is not usable: ${bubblewrap.message}`);

// A user with no sandbox setting at all (the harness turns it off for other tests).
const cli = useCliFixture({
  prepare: (sandbox) => writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } })),
});

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

async function runTask(turns: string[], extra: string[] = [], env?: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  await cli.server?.close();
  const server = await cli.startServer({ turns: turns.map((text) => ({ text })) });
  const args = ["run", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", "--yes", ...extra, "do it"];
  return env === undefined ? cli.run(args) : runCli(args, { env, cwd: cli.sandbox.workspace });
}

const sandboxLines = (stderr: string): string[] => stderr.split("\n").filter((line) => /the sandbox (is off|cannot run)/.test(line));

describe("the sandbox, on by default", () => {
  it.skipIf(!bubblewrap.ok)("nobody chose: commands run sandboxed (a write outside the workspace fails, inside works) and nothing is said", async () => {
    const outside = join(cli.sandbox.root, "outside.txt");
    const run = await runTask([command(`touch inside.txt; touch ${outside}`), complete]);
    expect(run.status, run.stderr).toBe(0);
    expect(sandboxLines(run.stderr)).toEqual([]);
    expect(existsSync(join(cli.sandbox.workspace, "inside.txt"))).toBe(true);
    expect(existsSync(outside)).toBe(false);
    const status = await cli.run(["sandbox", "status", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({ sandbox: "workspace-write", bubblewrap: "usable" });
  });

  it.skipIf(!bubblewrap.ok)("a cairn killed mid-command leaves the placeholder of a missing protected folder; the next start removes it, and a run that exits leaves none", { timeout: 60_000 }, async () => {
    const placeholder = join(cli.sandbox.workspace, ".cairn");
    const server = await cli.startServer({ turns: [{ text: command("sleep 31") }, { text: complete }, { text: command("true") }, { text: command("true") }, { text: complete }] });
    const args = ["run", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", "--yes", "do it"];
    const killed = startCli(args, { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await until(() => existsSync(placeholder), "the sandboxed command to start", 30_000);
    killed.child.kill("SIGKILL");
    expect(await killed.exit).toBe(137);
    expect(existsSync(placeholder), "the placeholder a crash left").toBe(true);
    // The killed run's sandbox dies with it (--die-with-parent), on a loaded machine a moment later: a start
    // while it still runs leaves its placeholder to a later one.
    await until(() => !commandRuns("sleep 31"), "the killed run's sandboxed command to end", 30_000);

    const next = await cli.run(args);
    expect(next.status, next.stderr).toBe(0);
    expect(existsSync(placeholder), "removed by the next start").toBe(false);
    const twoCommands = await cli.run(args);
    expect(twoCommands.status, twoCommands.stderr).toBe(0);
    expect(existsSync(placeholder)).toBe(false);
    const record = JSON.parse(await readFile(join(cli.sandbox.dataDir, "sandbox", "placeholders.json"), "utf8")) as unknown[];
    expect(record, "nothing left for a later start to clean").toEqual([]);
  });

  it("off explicitly: one line per run (text and --json) saying what that means and where it came from", async () => {
    const text = await runTask([command("echo one"), command("echo two"), complete], ["--sandbox", "off"]);
    expect(text.status, text.stderr).toBe(0);
    expect(sandboxLines(text.stderr)).toEqual([
      "cairn: the sandbox is off (--sandbox): commands, hooks and MCP servers run unconfined, with all your permissions; only the rules and your approvals stand between them and your files, keys and network.",
    ]);
    const json = await runTask([complete], ["--sandbox", "off", "--json"]);
    expect(sandboxLines(json.stderr)).toHaveLength(1);
    expect(json.stdout).not.toMatch(/sandbox is off/);
  });

  it("cairn sandbox disable records off in the user's config (keeping the rest), and enable takes it back", async () => {
    const disabled = await cli.run(["sandbox", "disable"]);
    expect(disabled.status).toBe(0);
    const file = join(cli.sandbox.configDir, "cairn", "config.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ retry: { delaysMs: [10, 20, 40] }, sandbox: "off" });
    const run = await runTask([complete]);
    expect(sandboxLines(run.stderr)).toHaveLength(1);
    expect(sandboxLines(run.stderr)[0]).toContain(file);
    expect(JSON.parse((await cli.run(["sandbox", "--json"])).stdout)).toMatchObject({ sandbox: "off" });
    expect((await cli.run(["sandbox", "enable"])).status).toBe(0);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ retry: { delaysMs: [10, 20, 40] } });
  });

  it("where bubblewrap cannot run: said once, and a command that is not known read-only is asked (refused under --yes) while a read-only one runs", async () => {
    const env = { ...cli.sandbox.env, PATH: await pathWithoutBubblewrap(join(cli.sandbox.root, "bin")) };
    const run = await runTask([command("touch made.txt"), command("ls -la"), complete], ["--json"], env);
    expect(run.status, run.stderr).toBe(0);
    expect(sandboxLines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/the sandbox cannot run here: the sandbox needs bubblewrap \(bwrap\), which is not installed.*asked, even with --yes/);
    expect(existsSync(join(cli.sandbox.workspace, "made.txt"))).toBe(false);
    expect(run.stdout).toMatch(/the sandbox cannot run here, and this command is not known to be read-only/);
    expect(run.stdout).toMatch(/"say":"command_output","text":"total \d+\\n/);
    // An explicit workspace-write there is an error naming what to do.
    const explicit = await runTask([complete], ["--sandbox", "workspace-write"], env);
    expect(explicit.status).toBe(2);
    expect(explicit.stderr).toMatch(/bubblewrap/);
  });

  it.skipIf(!tmuxAvailable())("the terminal UI says it once, above the UI, after the checks that stop a start", { timeout: 90_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: command("echo first") }, { text: "<attempt_completion>\n<result>all finished here</result>\n</attempt_completion>" }] });
    const terminal = await startTmux({
      command: [process.execPath, cairnBin, "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", "--yes", "--sandbox", "off", "say hello"],
      cwd: cli.sandbox.workspace,
      env: { CAIRN_HOME: cli.sandbox.dataDir, XDG_CONFIG_HOME: cli.sandbox.configDir, NO_COLOR: "1" },
    });
    try {
      const screen = await terminal.waitFor(/all finished here/, { timeoutMs: 60_000 });
      expect(screen.replace(/\s+/g, "").match(/thesandboxisoff/g)).toHaveLength(1);
    } finally {
      await terminal.kill();
    }
    // A missing key stops the start first: no sandbox line before it.
    const noKey = await runCli(["--sandbox", "off", "say hello"], { env: { ...cli.sandbox.env, ANTHROPIC_API_KEY: "" }, cwd: cli.sandbox.workspace });
    expect(noKey.status).toBe(2);
    expect(sandboxLines(noKey.stderr)).toEqual([]);
  });
});
