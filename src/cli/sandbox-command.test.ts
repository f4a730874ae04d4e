/**
 * #14 sandbox default through the real CLI: `cairn sandbox enable` opts in
 * once, later runs are sandboxed; without the opt-in a run says so in one
 * line on stderr (text and --json), once per run; an explicit off says nothing.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkBubblewrap } from "../security/sandbox.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { cairnBin, runCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const bubblewrap = checkBubblewrap();
if (!bubblewrap.ok) console.warn(`SKIPPED the opted-in sandbox run: bubblewrap (Debian package "bubblewrap") is not usable: ${bubblewrap.message}`);

// A user who never answered the sandbox question (the harness answers no for other tests).
const cli = useCliFixture({
  prepare: (sandbox) => writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } })),
});

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

async function runTask(turns: string[], extra: string[] = []): Promise<{ status: number; stdout: string; stderr: string }> {
  await cli.server?.close();
  const server = await cli.startServer({ turns: turns.map((text) => ({ text })) });
  return cli.run(["run", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", "--yes", ...extra, "do it"]);
}

const noticeLines = (stderr: string): string[] => stderr.split("\n").filter((line) => /sandbox is off/.test(line));

describe("#14 sandbox default and opt-in (cairn sandbox)", () => {
  it("not opted in: one notice line on stderr per run, in text and --json, even with many commands; none after an explicit off", async () => {
    const text = await runTask([command("echo one"), command("echo two"), command("echo three"), complete]);
    expect(text.status, text.stderr).toBe(0);
    expect(noticeLines(text.stderr)).toEqual(["cairn: the sandbox is off: commands run unconfined. Turn it on once with `cairn sandbox enable` (bubblewrap), or say `cairn sandbox disable` to keep it off without this notice."]);
    const json = await runTask([command("echo one"), complete], ["--json"]);
    expect(json.status).toBe(0);
    expect(noticeLines(json.stderr)).toHaveLength(1);
    expect(json.stdout).not.toMatch(/sandbox is off/);
    const off = await runTask([complete], ["--sandbox", "off"]);
    expect(noticeLines(off.stderr)).toEqual([]);
  });

  it("cairn sandbox disable answers no once: off without the notice; the user's other settings are kept", async () => {
    const disabled = await cli.run(["sandbox", "disable"]);
    expect(disabled.status).toBe(0);
    const config = JSON.parse(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")) as Record<string, unknown>;
    expect(config).toEqual({ retry: { delaysMs: [10, 20, 40] }, sandboxOptIn: false });
    const run = await runTask([complete]);
    expect(run.status).toBe(0);
    expect(noticeLines(run.stderr)).toEqual([]);
    const status = await cli.run(["sandbox", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({ sandbox: "off" });
  });

  it.skipIf(!bubblewrap.ok)("cairn sandbox enable opts in once: later runs are sandboxed (a write outside the workspace fails) and say nothing", async () => {
    const enabled = await cli.run(["sandbox", "enable"]);
    expect(enabled.status, enabled.stderr).toBe(0);
    expect(enabled.stdout).toMatch(/workspace-write sandbox by default/);
    const status = await cli.run(["sandbox", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({ sandbox: "workspace-write", bubblewrap: "usable" });

    const outside = join(cli.sandbox.root, "outside.txt");
    const run = await runTask([command(`touch inside.txt; touch ${outside}`), complete]);
    expect(run.status, run.stderr).toBe(0);
    expect(noticeLines(run.stderr)).toEqual([]);
    expect(existsSync(join(cli.sandbox.workspace, "inside.txt"))).toBe(true);
    expect(existsSync(outside)).toBe(false);
    // --sandbox off for one run still works, and is an explicit choice: no notice.
    const unconfined = await runTask([command(`touch ${outside}`), complete], ["--sandbox", "off", "--allow-outside-writes"]);
    expect(unconfined.status).toBe(0);
    expect(existsSync(outside)).toBe(true);
    expect(noticeLines(unconfined.stderr)).toEqual([]);
  });

  it("opted in where bubblewrap is missing: the run goes on unsandboxed and says why in one line", async () => {
    await cli.run(["sandbox", "enable"]);
    const server = await cli.startServer({ turns: [{ text: complete }] });
    const env = { ...cli.sandbox.env, PATH: join(cli.sandbox.root, "no-programs-here") };
    const run = await runCli(["run", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", "--yes", "--no-checkpoints", "do it"], { env, cwd: cli.sandbox.workspace });
    expect(run.status, run.stderr).toBe(0);
    expect(noticeLines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/although you opted in \(cairn sandbox enable\): the sandbox needs bubblewrap \(bwrap\), which is not installed/);
  });

  it.skipIf(!tmuxAvailable())("the terminal UI says it once, above the UI, before the first task", { timeout: 90_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: command("echo first") }, { text: "<attempt_completion>\n<result>all finished here</result>\n</attempt_completion>" }] });
    const terminal = await startTmux({
      command: [process.execPath, cairnBin, "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", "--yes", "say hello"],
      cwd: cli.sandbox.workspace,
      env: { CAIRN_HOME: cli.sandbox.dataDir, XDG_CONFIG_HOME: cli.sandbox.configDir, NO_COLOR: "1" },
    });
    try {
      const screen = await terminal.waitFor(/all finished here/, { timeoutMs: 60_000 });
      expect(screen.split("\n").filter((line) => /the sandbox is off/.test(line))).toHaveLength(1);
      // The line is wrapped at the terminal's width.
      expect(screen.replace(/\s+/g, "")).toContain("Turnitononcewith`cairnsandboxenable`");
    } finally {
      await terminal.kill();
    }
  });
});
