import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const fixture = useCliFixture();
const bigServer = fileURLToPath(new URL("../mcp/test-support/big-result-server.js", import.meta.url));

describe("an MCP tool that returns megabytes (a real stdio server on the MCP SDK)", () => {
  it("the result is delivered: cut for the model with a note of its size, whole in the task log", { timeout: 120_000 }, async () => {
    await writeFile(join(fixture.sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [bigServer], timeout: 30 } } }));
    // 6 million characters of "é": 12 MB on the wire, over the MCP SDK's own 10 MB limit.
    const call = `<use_mcp_tool>\n<server_name>big</server_name>\n<tool_name>big</tool_name>\n<arguments>${JSON.stringify({ size: 6_000_000, unit: "é" })}</arguments>\n</use_mcp_tool>`;
    const server = await fixture.startServer({ turns: [{ text: call }, { text: "<attempt_completion>\n<result>read it</result>\n</attempt_completion>" }] });
    const result = await fixture.run(["run", "--json", "--yes", ...anthropicArgs(server), "call the big tool"]);
    expect(withoutSandboxNotice(result.stderr)).toBe("");
    expect(result.status).toBe(0);
    const sent = JSON.stringify(server.requests[1]?.body);
    expect(sent).toContain("[Output truncated: 100000 of 6000000 characters shown.");
    expect(sent).not.toContain("END-OF-BIG-RESULT");
    expect(sent.length).toBeLessThan(400_000);

    const taskId = String(result.events[0]?.["taskId"]);
    const loaded = await new TaskStore({ dataDir: fixture.sandbox.dataDir }).load(taskId);
    const response = loaded.uiMessages.find((message) => message.type === "say" && message.say === "mcp_server_response");
    expect(response?.text).toHaveLength(6_000_000);
    expect(response?.text.endsWith("END-OF-BIG-RESULT")).toBe(true);
  });
});
