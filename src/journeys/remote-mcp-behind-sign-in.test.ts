/**
 * Journey: a developer connects the team's remote tracker, an HTTP MCP server
 * behind OAuth sign-in whose tool asks how bad a bug is (docs/journeys.md,
 * "A remote MCP server behind sign-in"), then uses its prompt and resource from
 * the terminal UI (tmux). A real authorization server and MCP server on
 * loopback; the browser is an HTTP client following the redirect.
 * Runs bin/cairn (dist/): `npm run build` first.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairnBin, runCli, startCli } from "../cli/test-support/cli-harness.js";
import { quitWithCtrlC, startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { startOAuthMcpServer } from "../mcp/test-support/oauth-server.js";
import type { OAuthMcpServer } from "../mcp/test-support/oauth-server.js";
import { conversationRequests, lastToolResult, say, serveConversations } from "./test-support/model-turns.js";
import { makeUserMachine } from "./test-support/user-machine.js";
import type { UserMachine } from "./test-support/user-machine.js";

const apiKey = "sk-journey-tracker-0123456789";
const firstTask = "File the login bug in the tracker";
const secondTask = "File the login bug in the tracker, now that I signed in";
const terminalTask = "Check the tracker";
const mentionTask = "what breaks @tracker:tracker://bugs/open";

let machine: UserMachine;
let tracker: OAuthMcpServer;
let model: ScriptedServer;

const provider = (): string[] => ["--provider", "anthropic", "--base-url", model.url, "--api-key", apiKey];
const cairn = (args: string[], stdin?: string): ReturnType<typeof runCli> => runCli(args, { env: machine.env, cwd: machine.workspace, ...(stdin === undefined ? {} : { stdin }) });

beforeAll(async () => {
  [machine, tracker] = await Promise.all([makeUserMachine({ project: "shop" }), startOAuthMcpServer()]);
  model = await serveConversations([
    { match: terminalTask, turns: [say.complete("The tracker answers.")] },
    { match: mentionTask, turns: [say.complete("BUG-1 breaks every login.")] },
    { match: secondTask, turns: [say.mcp("tracker", "file_bug", {}), say.complete("Filed it.")] },
    { match: firstTask, turns: [say.mcp("tracker", "file_bug", {}), say.complete("The tracker needs you to sign in first.")] },
  ]);
});
afterAll(async () => {
  await Promise.all([model.close(), tracker.stop()]);
  await machine.cleanup();
});

if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'a remote MCP server behind sign-in' is skipped (install the tmux package)");
describe.skipIf(!tmuxAvailable())("journey: a remote MCP server behind sign-in", () => {
  it("add, see it needs sign-in, a task says so, sign in without a browser, a task answers the server's question, sign out", { timeout: 120_000 }, async () => {
    expect((await cairn(["mcp", "add", "tracker", tracker.url, "--auto-approve", "file_bug"])).status).toBe(0);
    const before = await cairn(["mcp", "list"]);
    expect(before.stdout).toContain("sign-in: needs sign-in (run: cairn mcp login tracker)");

    // A task before signing in: told once what to run; the model learns the server is not there, the task goes on.
    const refused = await cairn(["run", ...provider(), firstTask]);
    expect(refused.status).toBe(0);
    expect(refused.stderr).toContain('MCP server "tracker" needs sign-in: run `cairn mcp login tracker`');
    // Said once for the task, not before each of its requests.
    expect(refused.stderr.split("MCP servers not ready yet, going on without them: tracker (needs sign-in)")).toHaveLength(2);
    expect(lastToolResult(conversationRequests(model, firstTask)[1])).toContain("needs sign-in");

    // Signing in over SSH: the address is printed, opened elsewhere; the redirect comes back to cairn's loopback port.
    const login = startCli(["mcp", "login", "tracker", "--no-browser"], { env: machine.env, cwd: machine.workspace });
    await login.waitForOutput(/authorize\?\S+\n/, "stderr");
    const address = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)\n/.exec(login.stderr)?.[1] ?? "";
    const page = await fetch(address, { redirect: "follow" });
    expect(await page.text()).toContain("You can close this tab");
    expect(await login.exit).toBe(0);
    expect(login.stdout).toBe('Signed in to MCP server "tracker".\n');

    // The tokens: in ~/.cairn, readable by the user alone.
    const folder = join(machine.dataDir, "mcp-oauth");
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(folder);
    expect((await stat(join(folder, file ?? ""))).mode & 0o777).toBe(0o600);
    const accessToken = (JSON.parse(await readFile(join(folder, file ?? ""), "utf8")) as { tokens: { access_token: string } }).tokens.access_token;

    // The tracker's tool asks how bad the bug is: a question on stderr, answered on stdin with the option's number.
    const filed = await cairn(["run", ...provider(), secondTask], "2\n");
    expect(filed.status).toBe(0);
    expect(filed.stderr).toContain('? MCP server "tracker" asks: How bad is it?');
    expect(filed.stderr).toMatch(/1\. low\n\s+2\. high/);
    expect(lastToolResult(conversationRequests(model, secondTask)[1])).toContain("filed BUG-1 (high)");
    expect(`${filed.stdout}${filed.stderr}${login.stderr}`).not.toContain(accessToken);

    // In the terminal UI: the servers the first task started stay up; their prompts are in the / menu,
    // Tab completes a resource as @server:uri, and the next task mentioning it reaches the model with the resource.
    const ui = await startTmux({ command: [process.execPath, cairnBin, ...provider(), "--yes", terminalTask], cwd: machine.workspace, env: machine.terminal.env, unset: machine.terminal.unset, columns: 100, rows: 40 });
    try {
      await ui.waitFor(/Give feedback/, { timeoutMs: 60_000 });
      await ui.sendText("/mcp__tracker");
      await ui.waitFor(/\/mcp__tracker__triage <bug>\s+Triages a bug \(MCP prompt of tracker\)/, { timeoutMs: 30_000 });
      await ui.sendKeys(..."/mcp__tracker".split("").map(() => "BSpace"));
      await ui.sendText("what breaks @tracker:tr");
      await ui.sendKeys("Tab");
      await ui.waitFor(/what breaks @tracker:tracker:\/\/bugs\/open/, { timeoutMs: 30_000 });
      await ui.sendKeys("Enter");
      await ui.waitFor(/BUG-1 breaks every login/, { timeoutMs: 60_000 });
      expect(JSON.stringify(conversationRequests(model, mentionTask)[0])).toContain("the login page rejects every password");
      // The second task used the servers the first one started: they connected once.
      expect((await ui.captureAll()).split('MCP server "tracker" connected').length - 1).toBe(1);
      expect(await quitWithCtrlC(ui)).toBe(0);
    } finally {
      await ui.kill();
    }

    const after = await cairn(["mcp", "list"]);
    expect(after.stdout).toContain("sign-in: signed in");
    const logout = await cairn(["mcp", "logout", "tracker"]);
    expect(logout.stdout).toBe('Signed out of MCP server "tracker" (its tokens are deleted).\n');
    expect(await readdir(folder)).toEqual([]);
  });
});
