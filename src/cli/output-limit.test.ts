import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { makeSandbox, runCli } from "./test-support/cli-harness.js";
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

const done = { text: "<attempt_completion>\n<result>split</result>\n</attempt_completion>" };

describe("#11 item 1 end to end: a write cut by the output limit writes nothing", () => {
  it("Anthropic API, xml protocol: stop_reason max_tokens", async () => {
    server = await startScriptedServer({
      scenario: { turns: [{ text: "<write_to_file>\n<path>big.ts</path>\n<content>\nexport const a = 1;\nexport const", stopReason: "max_tokens" }, done] },
    });
    const result = await runCli(
      ["run", "--json", "--yes", "--tool-protocol", "xml", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5", "write"],
      { env: sandbox.env, cwd: sandbox.workspace },
    );
    expect(result.status).toBe(0);
    expect(existsSync(join(sandbox.workspace, "big.ts"))).toBe(false);
    expect(result.events.some((event) => event["say"] === "warning" && /output-token limit/.test(String(event["text"])))).toBe(true);
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/cut off by the output-token limit.*Split the work/);
  });

  it("OpenAI API, native protocol: finish_reason length with incomplete JSON arguments", async () => {
    server = await startScriptedServer({
      scenario: {
        turns: [
          { toolCalls: [{ id: "call_0", name: "write_to_file", arguments: '{"path":"big.ts","content":"export const a = 1;\\nexport' }], stopReason: "length" },
          { toolCalls: [{ id: "call_0", name: "attempt_completion", arguments: { result: "split" } }] },
        ],
      },
    });
    const result = await runCli(
      ["run", "--json", "--yes", "--tool-protocol", "native", "--provider", "openai", "--base-url", `${server.url}/v1`, "--api-key", "k", "--model", "gpt-4.1", "write"],
      { env: sandbox.env, cwd: sandbox.workspace },
    );
    expect(result.status).toBe(0);
    expect(existsSync(join(sandbox.workspace, "big.ts"))).toBe(false);
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/cut off by the output-token limit/);
  });
});
