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
});
