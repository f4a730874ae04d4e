/**
 * Issue #12 "Defects found", as a user meets them on the command line: each
 * test runs the real CLI (bin/cairn → dist/, run `npm run build` first)
 * against the scripted LLM server on loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { makeSandbox, startCli } from "./test-support/cli-harness.js";
import type { Sandbox } from "./test-support/cli-harness.js";

let sandbox: Sandbox;
let server: ScriptedServer | undefined;

beforeEach(async () => {
  sandbox = await makeSandbox();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await sandbox.cleanup();
});

const anthropic = (target: ScriptedServer): string[] => ["--provider", "anthropic", "--base-url", target.url, "--api-key", "test-key"];

describe("issue #12 defects (CLI)", () => {
  it("Esc / SIGINT during a running command: its output is one message, not two", { timeout: 60_000 }, async () => {
    server = await startScriptedServer({
      scenario: { turns: [{ text: "<execute_command>\n<command>echo output-marker; sleep 30</command>\n<requires_approval>false</requires_approval>\n</execute_command>" }] },
    });
    const run = startCli(["run", "--json", "--yes", ...anthropic(server), "run it"], { env: sandbox.env, cwd: sandbox.workspace });
    await run.waitForOutput(/"say":"command_output"/);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    const outputs = run.events().filter((event) => event["say"] === "command_output");
    expect(new Set(outputs.map((event) => event["id"])).size).toBe(1);
  });

  it("an unreachable base URL: after the retries, one message naming the URL and what to change, no Retry? ask", { timeout: 60_000 }, async () => {
    const run = startCli(["run", "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "test-key", "hi"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(await run.exit).toBe(1);
    const all = run.stdout + run.stderr;
    expect(all).not.toMatch(/Retry\?/);
    expect(all).not.toContain("api_req_failed");
    expect(all.match(/Cannot reach http:\/\/127\.0\.0\.1:9\/v1/g)).toHaveLength(1);
    expect(all).toMatch(/Check the base URL/);
  });

  it("a 401 is said once with what to set, and never offers Retry?", { timeout: 60_000 }, async () => {
    server = await startScriptedServer({ scenario: { turns: [{ error: { status: 401 } }] } });
    const run = startCli(["run", ...anthropic(server), "hi"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(await run.exit).toBe(1);
    const all = run.stdout + run.stderr;
    expect(all).not.toMatch(/Retry\?/);
    expect(all.match(/rejected the API key/g)).toHaveLength(1);
    expect(all).toMatch(/ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(1);
  });

  it("a 403 and a 404 say what to change, once", { timeout: 60_000 }, async () => {
    server = await startScriptedServer({ scenario: { turns: [{ error: { status: 403 } }] } });
    const forbidden = startCli(["run", ...anthropic(server), "hi"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(await forbidden.exit).toBe(1);
    expect((forbidden.stdout + forbidden.stderr).match(/has no access to this model/g)).toHaveLength(1);
    await server.close();
    server = await startScriptedServer({ scenario: { turns: [{ error: { status: 404 } }] } });
    const missing = startCli(["run", ...anthropic(server), "--model", "no-such-model", "hi"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(await missing.exit).toBe(1);
    const all = missing.stdout + missing.stderr;
    expect(all.match(/check the model id/g)).toHaveLength(1);
    expect(all).not.toMatch(/Retry\?/);
  });
});
