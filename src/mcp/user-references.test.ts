/**
 * MCP prompts as `/mcp__server__prompt args` and resources as `@server:uri`,
 * from real servers (server-everything; the SDK's McpServer adding a prompt
 * while connected), and once through `cairn run`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import { McpHub } from "./hub.js";
import { everythingEntry, everythingStdio, serverConfig } from "./test-support/servers.js";
import { expandMcpReferences } from "./user-references.js";

const elicitingEntry = fileURLToPath(new URL("./test-support/eliciting-server.js", import.meta.url));
let hub: McpHub;
const signal = new AbortController().signal;

beforeAll(async () => {
  hub = new McpHub({ servers: [serverConfig("everything", everythingStdio()), serverConfig("bistro", { type: "stdio", command: process.execPath, args: [elicitingEntry], env: {} })] });
  await hub.waitForServers(20_000, signal);
});
afterAll(() => hub.close());

describe("MCP prompts and resources for the user", () => {
  it("a prompt is a command whose words fill its declared arguments, in order or by name; a missing one says how to call it", async () => {
    expect(hub.listPrompts().find((prompt) => prompt.name === "args-prompt")).toMatchObject({
      server: "everything",
      arguments: [
        { name: "city", required: true },
        { name: "state", required: false },
      ],
    });
    expect(await expandMcpReferences("/mcp__everything__args-prompt Paris Ile de France", hub, signal)).toEqual({
      text: "What's weather in Paris, Ile de France?",
      notices: ["Running the MCP prompt /mcp__everything__args-prompt"],
    });
    expect((await expandMcpReferences('/mcp__everything__args-prompt state=Texas city="El Paso"', hub, signal)).text).toBe("What's weather in El Paso, Texas?");
    expect(await expandMcpReferences("/mcp__everything__args-prompt", hub, signal)).toEqual({
      text: "/mcp__everything__args-prompt",
      notices: ["/mcp__everything__args-prompt needs city: /mcp__everything__args-prompt <city> [state]; the message was sent as typed."],
    });
  });

  it("@server:uri attaches the resource after the message; an unknown server is a note", async () => {
    const resource = hub.listResources().find((candidate) => candidate.uri.startsWith("demo://resource/static/document/"));
    expect(resource).toBeDefined();
    const expanded = await expandMcpReferences(`summarise @everything:${resource?.uri ?? ""} and @nowhere:demo://x`, hub, signal);
    expect(expanded.text).toMatch(
      new RegExp(`^summarise @everything:\\S+ and @nowhere:demo://x\\n\\n<attached_context>\\n<mcp_resource server="everything" uri="${resource?.uri ?? ""}">\\n[\\s\\S]+\\n</mcp_resource>\\n</attached_context>$`),
    );
    expect(expanded.notices).toEqual(['@nowhere:demo://x: there is no connected MCP server "nowhere"; nothing was attached.']);
  });

  it("a prompt the server adds while connected is offered at once (prompts/list_changed)", async () => {
    expect(hub.listPrompts().some((prompt) => prompt.name === "menu")).toBe(false);
    await hub.callTool({ server: "bistro", tool: "add_prompt", arguments: {}, signal });
    await vi.waitFor(() => expect(hub.listPrompts().some((prompt) => prompt.server === "bistro" && prompt.name === "menu")).toBe(true));
    expect((await expandMcpReferences("/mcp__bistro__menu", hub, signal)).text).toBe("Soup of the day");
  });
});

describe("through cairn run", () => {
  const fixture = useCliFixture();
  it("a task typed as an MCP prompt reaches the model expanded", { timeout: 60_000 }, async () => {
    await writeFile(join(fixture.sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } } }));
    const server = await fixture.startServer({ turns: [{ text: "<attempt_completion>\n<result>sunny</result>\n</attempt_completion>" }] });
    const result = await runCli(["run", "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", "/mcp__everything__args-prompt Paris"], { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("Running the MCP prompt /mcp__everything__args-prompt");
    expect(JSON.stringify(server.requests[0]?.body)).toContain("What's weather in Paris?");
  });
});
