import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const done = { text: "<attempt_completion>\n<result>split</result>\n</attempt_completion>" };

describe("a write cut by the output limit writes nothing, end to end", () => {
  it("Anthropic API, xml protocol: stop_reason max_tokens", async () => {
    const server = await cli.startServer({ turns: [{ text: "<write_to_file>\n<path>big.ts</path>\n<content>\nexport const a = 1;\nexport const", stopReason: "max_tokens" }, done] });
    const result = await cli.run(["run", "--json", "--yes", "--tool-protocol", "xml", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5", "write"]);
    expect(result.status).toBe(0);
    expect(existsSync(join(cli.sandbox.workspace, "big.ts"))).toBe(false);
    expect(result.events.some((event) => event["say"] === "warning" && /output-token limit/.test(String(event["text"])))).toBe(true);
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/cut off by the output-token limit.*Split the work/);
  });

  it("OpenAI API, native protocol: finish_reason length with incomplete JSON arguments", async () => {
    const server = await cli.startServer({
      turns: [
        { toolCalls: [{ id: "call_0", name: "write_to_file", arguments: '{"path":"big.ts","content":"export const a = 1;\\nexport' }], stopReason: "length" },
        { toolCalls: [{ id: "call_0", name: "attempt_completion", arguments: { result: "split" } }] },
      ],
    });
    const result = await cli.run(["run", "--json", "--yes", "--tool-protocol", "native", "--provider", "openai", "--base-url", `${server.url}/v1`, "--api-key", "k", "--model", "gpt-4.1", "write"]);
    expect(result.status).toBe(0);
    expect(existsSync(join(cli.sandbox.workspace, "big.ts"))).toBe(false);
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/cut off by the output-token limit/);
  });
});
