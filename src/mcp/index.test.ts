import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpHubForTask } from "./index.js";
import type { McpHub, McpHubEvent } from "./index.js";
import { everythingEntry, makeTemporaryFolder } from "./test-support/servers.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe("createMcpHubForTask", () => {
  it("builds a hub from the user's mcp.json that connects on the first wait", async () => {
    const folder = await makeTemporaryFolder("task");
    cleanups.push(folder.remove);
    const userConfigDir = join(folder.path, "config");
    await mkdir(userConfigDir, { recursive: true });
    await writeFile(join(userConfigDir, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"], autoApprove: ["echo"] } } }));
    const events: McpHubEvent[] = [];
    const { hub, warnings } = await createMcpHubForTask({
      userConfigDir,
      workspace: folder.path,
      projectTrusted: false,
      dataDir: join(folder.path, "data"),
      onEvent: (event) => events.push(event),
    });
    const started: McpHub = hub;
    cleanups.push(() => started.close());
    expect(warnings).toEqual([]);
    expect(await hub.waitForServers(60_000, new AbortController().signal)).toEqual({ ready: ["everything"], pending: [] });
    expect(hub.getTool("everything", "echo")?.autoApprove).toBe(true);
    expect(events.some((event) => event.type === "server_connected")).toBe(true);
    expect((await hub.reviewToolDescriptions()).map((review) => review.kind)).toEqual(["new_server"]);
  });
});
