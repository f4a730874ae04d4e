import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { everythingEntry, wrappedEverythingStdio } from "../mcp/test-support/servers.js";
import { runCli, startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const fixture = useCliFixture();

async function writeMcpConfig(servers: Record<string, unknown>, extraConfig: Record<string, unknown> = {}): Promise<void> {
  await writeFile(join(fixture.sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: servers }));
  await writeFile(join(fixture.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, ...extraConfig }));
}

const everything = { command: process.execPath, args: [everythingEntry, "stdio"] };
const complete = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const completeNative = { toolCalls: [{ name: "attempt_completion", arguments: { result: "done" } }] };

function xmlCall(server: string, tool: string, args: unknown): string {
  return `<use_mcp_tool>\n<server_name>${server}</server_name>\n<tool_name>${tool}</tool_name>\n<arguments>${JSON.stringify(args)}</arguments>\n</use_mcp_tool>`;
}

async function run(scenario: Scenario, protocol: "xml" | "native"): ReturnType<typeof fixture.run> {
  const server = await fixture.startServer(scenario);
  return runCli(["run", "--json", "--yes", "--tool-protocol", protocol, "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", "use the server"], {
    env: fixture.sandbox.env,
    cwd: fixture.sandbox.workspace,
  });
}

const requestText = (index: number): string => JSON.stringify(fixture.server?.requests[index]?.body ?? null);

describe("MCP through cairn run (real servers, real CLI)", () => {
  it("T2, T15 xml: a tool call's result reaches the next request; the prompt lists the server's tools", async () => {
    await writeMcpConfig({ everything });
    const result = await run({ turns: [{ text: xmlCall("everything", "echo", { message: "hi from the model" }) }, complete] }, "xml");
    expect(result.status).toBe(0);
    expect(requestText(0)).toContain("echo");
    expect(requestText(0)).toContain("everything");
    expect(requestText(1)).toContain("Echo: hi from the model");
  });

  it("native: each MCP tool is a native tool; its result reaches the next request", async () => {
    await writeMcpConfig({ everything });
    const result = await run({ turns: [{ toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "native hello" } }] }, completeNative] }, "native");
    expect(result.status).toBe(0);
    const first = fixture.server?.requests[0]?.body as { tools?: Array<{ name: string }> };
    expect(first.tools?.map((tool) => tool.name)).toContain("mcp__everything__echo");
    expect(requestText(1)).toContain("Echo: native hello");
  });

  it("a resource read reaches the next request", async () => {
    await writeMcpConfig({ everything });
    const read = "<access_mcp_resource>\n<server_name>everything</server_name>\n<uri>demo://resource/dynamic/text/7</uri>\n</access_mcp_resource>";
    const result = await run({ turns: [{ text: read }, complete] }, "xml");
    expect(result.status).toBe(0);
    expect(requestText(1)).toMatch(/Resource 7/i);
  });

  it("native: a resource read, and a bad argument refused before the call", async () => {
    await writeMcpConfig({ everything });
    const result = await run(
      {
        turns: [
          { toolCalls: [{ name: "access_mcp_resource", arguments: { server_name: "everything", uri: "demo://resource/dynamic/text/7" } }] },
          { toolCalls: [{ name: "mcp__everything__echo", arguments: { msg: 5 } }] },
          completeNative,
        ],
      },
      "native",
    );
    expect(result.status).toBe(0);
    expect(requestText(1)).toMatch(/Resource 7/i);
    expect(requestText(2)).toContain("message");
    expect(requestText(2)).not.toContain("Echo:");
  });

  it("a bad argument is refused before the call, with a clear message to the model", async () => {
    await writeMcpConfig({ everything });
    const result = await run({ turns: [{ text: xmlCall("everything", "echo", { msg: 5 }) }, complete] }, "xml");
    expect(result.status).toBe(0);
    expect(requestText(1)).toContain("message");
    expect(requestText(1)).not.toContain("Echo:");
  });

  it("T15: a server slow to start is waited for only as long as configured, and named", async () => {
    const folder = fixture.sandbox.root;
    const slow = await wrappedEverythingStdio(folder, { gateFile: join(folder, "never-created") });
    await writeMcpConfig({ slow: { command: slow.type === "stdio" ? slow.command : "", args: slow.type === "stdio" ? slow.args : [] } }, { timeouts: { mcpWaitMs: 300 } });
    const result = await run({ turns: [complete] }, "xml");
    expect(result.status).toBe(0);
    expect(result.events.some((event) => event["say"] === "warning" && String(event["text"]).includes("slow"))).toBe(true);
  });

  it("a server that never starts is reported, and the task goes on", async () => {
    await writeMcpConfig({ broken: { command: join(fixture.sandbox.root, "no-such-program") }, everything });
    const result = await run({ turns: [{ text: xmlCall("everything", "echo", { message: "still works" }) }, complete] }, "xml");
    expect(result.status).toBe(0);
    expect(result.events.some((event) => event["say"] === "mcp_notification" && String(event["text"]).includes("broken"))).toBe(true);
    expect(requestText(1)).toContain("Echo: still works");
  });

  it("a server that crashes mid-task: the call fails clearly and the task goes on", async () => {
    // In the workspace: the sandbox (on here) gives its processes a private /tmp, where the fixture's root lives.
    const folder = join(fixture.sandbox.workspace, "servers");
    await mkdir(folder, { recursive: true });
    const crashFile = join(folder, "crash-now");
    const wrapped = await wrappedEverythingStdio(folder, { crashFile });
    await writeMcpConfig({ fragile: { command: wrapped.type === "stdio" ? wrapped.command : "", args: wrapped.type === "stdio" ? wrapped.args : [] } });
    const server = await fixture.startServer({
      turns: [
        { text: xmlCall("fragile", "echo", { message: "before the crash" }) },
        { text: `Trying again. ${"Waiting a little. ".repeat(20)}${xmlCall("fragile", "echo", { message: "after the crash" })}`, chunkSize: 8, delayMs: 40 },
        complete,
      ],
    });
    const cli = startCli(["run", "--json", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", "use the server"], {
      env: fixture.sandbox.env,
      cwd: fixture.sandbox.workspace,
    });
    await server.waitForChunks(1, 1);
    await writeFile(crashFile, "");
    expect(await cli.exit).toBe(0);
    expect(requestText(1)).toContain("Echo: before the crash");
    expect(requestText(2)).not.toContain("Echo: after the crash");
    expect(requestText(2)).toMatch(/fragile/);
  });
});
