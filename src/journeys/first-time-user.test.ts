/**
 * Journey: the first-time user (docs/journeys.md, "The terminal user"): a
 * machine with an empty HOME, no git identity and no bubblewrap. bin/cairn in
 * tmux against the scripted model: run `npm run build` first.
 */
import { existsSync } from "node:fs";
import { chmod, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cairnBin } from "../cli/test-support/cli-harness.js";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../ui/tui/test-support/tmux.js";
import { firstTimeMachine, ordinaryUserProblem } from "./test-support/first-time-machine.js";
import type { FirstTimeMachine } from "./test-support/first-time-machine.js";
import { commandTurn, completeTurn, flat, quitWithCtrlC, squeezed, typeLine, writeFileTurn } from "./test-support/terminal-journey.js";

const cli = useCliFixture();
const repository = fileURLToPath(new URL("../..", import.meta.url));

if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'first-time user' is skipped (install the tmux package)");
const userProblem = ordinaryUserProblem(repository);
if (userProblem !== undefined) console.warn(`the journey 'first-time user' is skipped: ${userProblem}`);

/** A terminal on the first-time machine, ended after the test. */
async function terminal(machine: FirstTimeMachine, program: string[], options: { cwd: string; env?: Record<string, string>; columns?: number }): Promise<TmuxSession> {
  const session = await startTmux({ command: machine.command(program, options.env), cwd: options.cwd, ...(options.columns === undefined ? {} : { columns: options.columns }) });
  cli.stopAfterTest(() => session.kill());
  return session;
}

/** How many times the screen gives the notice that the sandbox cannot run (long lines wrap: read without blanks). */
const sandboxNotices = (screen: string): number => (screen.replace(/\s/g, "").match(/thesandboxcannotrunhere:/g) ?? []).length;

describe.skipIf(!tmuxAvailable() || userProblem !== undefined)("journey: the first-time user", () => {
  it(
    "the Quick start demo, then a first task in a fresh git repository: the missing sandbox said once, commands asked even with --yes, checkpoints without a git identity; an unusable data folder loses nothing",
    { timeout: 180_000 },
    async () => {
      const machine = await firstTimeMachine(cli.sandbox.root);
      const git = (cwd: string, ...args: string[]) => machine.run(["git", ...args], cwd);
      // Nothing of cairn's, git's or Claude Code's is there to be found.
      expect(await readdir(machine.home)).toEqual([]);
      expect(git(machine.home, "config", "--get", "user.email").stdout).toBe("");
      expect(machine.run(["sh", "-c", "command -v bwrap"], machine.home).status).not.toBe(0);

      // README's Quick start: `npm run demo` in the checkout (`npm ci` has run: this checkout is built).
      const demo = await terminal(machine, ["npm", "run", "demo"], { cwd: repository });
      const asked = await demo.waitFor(/Run this command\?/, { timeoutMs: 60_000 });
      expect(asked).toMatch(/\$ node --test/);
      // Why it asks, on the card: the sandbox cannot run here.
      expect(flat(asked)).toMatch(/Asked because the sandbox cannot run here, and this command is not known to be read-only/);
      await demo.sendKeys("1");
      await demo.waitFor(/Task completed/, { timeoutMs: 60_000 });
      expect(await demo.waitForExit({ timeoutMs: 30_000 })).toBe(0);
      expect(sandboxNotices(await demo.captureAll())).toBe(1);

      // The first real task, in a fresh git repository, with an API key in the environment.
      const server = await cli.startServer({
        turns: [
          writeFileTurn("greet.sh", 'echo "hello from cairn"', "Writing the script.\n"),
          commandTurn("sh greet.sh > greeting.txt", "Running it.\n"),
          commandTurn("cat greeting.txt", "Checking.\n"),
          completeTurn("greet.sh writes the greeting"),
          completeTurn("the weekly report is written"),
        ],
      });
      const provider = ["--provider", "anthropic", "--base-url", server.url];
      const key = { ANTHROPIC_API_KEY: "sk-test-key" };
      const project = await machine.folder(join(cli.sandbox.root, "project"));
      expect(git(project, "init", "-q").status).toBe(0);
      await writeFile(join(project, "README.md"), "# project\n");
      const ui = await terminal(machine, ["node", cairnBin, ...provider, "--yes", "add a greeting script"], { cwd: project, env: key });
      const command = await ui.waitFor(/Run this command\?/, { timeoutMs: 60_000 });
      expect(command).toMatch(/\$ sh greet\.sh > greeting\.txt/);
      expect(flat(command)).toMatch(/Asked because the sandbox cannot run here/);
      expect(existsSync(join(project, "greet.sh"))).toBe(true);
      await ui.sendKeys("1");
      // The read-only command runs without a question.
      const done = await ui.waitFor(/greet\.sh writes the greeting[\s\S]*Give feedback/, { timeoutMs: 60_000 });
      expect(done).not.toMatch(/Run this command\?/);
      expect(await readFile(join(project, "greeting.txt"), "utf8")).toBe("hello from cairn\n");
      const everything = await ui.captureAll();
      expect(sandboxNotices(everything)).toBe(1);
      expect(everything).toMatch(/◇ Checkpoint [0-9a-f]{12}/);
      expect(everything).not.toMatch(/tell me who you are|checkpoint.*(failed|disabled)/i);
      // Checkpoints without a git identity: /undo takes the last change back.
      await typeLine(ui, "/undo");
      await ui.waitFor(/removed greeting\.txt/, { timeoutMs: 30_000 });
      expect(existsSync(join(project, "greeting.txt"))).toBe(false);
      expect(existsSync(join(project, "greet.sh"))).toBe(true);
      expect(await quitWithCtrlC(ui)).toBe(0);
      // cairn's data folder is in the new HOME; the user's repository got no commit of cairn's.
      expect(await readdir(join(machine.home, ".cairn", "tasks"))).toHaveLength(1);
      expect(git(project, "rev-parse", "--verify", "HEAD").status).not.toBe(0);
      expect(git(project, "status", "--porcelain").stdout).toContain("?? greet.sh");

      // A HOME cairn cannot write: told before anything starts, with the task to run again.
      const readOnlyHome = await machine.folder(join(cli.sandbox.root, "read-only-home"));
      await chmod(readOnlyHome, 0o555);
      const refused = await terminal(machine, ["node", cairnBin, ...provider, "write the weekly report"], { cwd: project, env: { ...key, HOME: readOnlyHome } });
      expect(await refused.waitForExit({ timeoutMs: 30_000 })).toBe(2);
      const refusal = squeezed(await refused.captureAll());
      expect(refusal).toContain(squeezed(`the data folder ${join(readOnlyHome, ".cairn")} cannot be created`));
      expect(refusal).toContain(squeezed("CAIRN_HOME=<folder> or --data-dir <folder>"));
      expect(refusal).toContain(squeezed('cairn "write the weekly report"'));

      // The data folder goes away while the terminal UI is open: the typed task is not lost.
      const laterHome = await machine.folder(join(cli.sandbox.root, "later-home"));
      const open = await terminal(machine, ["node", cairnBin, ...provider], { cwd: project, env: { ...key, HOME: laterHome } });
      // The input box is drawn while cairn starts: what is typed into it then is kept for the UI.
      await open.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
      await open.sendText("write the weekly");
      // The UI itself (its status line), with the words typed before it was up.
      await open.waitFor(/│ › write the weekly[\s\S]*Tab mode/, { timeoutMs: 30_000 });
      await rm(join(laterHome, ".cairn"), { recursive: true, force: true });
      await chmod(laterHome, 0o555);
      await typeLine(open, " report");
      const failed = squeezed(await open.waitFor(/cannot be created/, { timeoutMs: 30_000 }));
      expect(failed).toContain(squeezed(`the data folder ${join(laterHome, ".cairn")} cannot be created`));
      expect(failed).toContain(squeezed("CAIRN_HOME=<folder> or --data-dir <folder>"));
      expect(failed).toContain(squeezed("write the weekly report"));
      // Fixed: ↑ brings the task back, Enter sends it.
      await chmod(laterHome, 0o755);
      await open.sendKeys("Up");
      await open.waitFor(/│ › write the weekly report/, { timeoutMs: 10_000 });
      await open.sendKeys("Enter");
      await open.waitFor(/the weekly report is written/, { timeoutMs: 60_000 });
      expect(await quitWithCtrlC(open)).toBe(0);
      expect(await readdir(join(laterHome, ".cairn", "tasks"))).toHaveLength(1);
    },
  );
});
