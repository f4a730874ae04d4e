import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { McpCallError, McpHub } from "./hub.js";
import type { McpHubOptions } from "./hub.js";
import { EventLog, everythingStdio, filesystemStdio, gatedEverythingStdio, makeTemporaryFolder, serverConfig, startHttpEverything, wrappedEverythingStdio } from "./test-support/servers.js";
import type { HttpEverything } from "./test-support/servers.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function hubWith(options: McpHubOptions): McpHub {
  const hub = new McpHub({ reconnect: { initialDelayMs: 50, maxDelayMs: 200 }, ...options });
  cleanups.push(() => hub.close());
  return hub;
}

const never = new AbortController().signal;

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("McpHub with server-everything over stdio", () => {
  // One hub for the tests that do not disturb its servers: starting a server takes seconds here.
  let hub: McpHub;
  const events = new EventLog();
  beforeAll(async () => {
    hub = new McpHub({
      servers: [serverConfig("everything", everythingStdio(), { autoApprove: ["echo"] }), serverConfig("strict", everythingStdio(), { timeoutMs: 300 })],
      onEvent: events.listener,
    });
    hub.start();
  });
  afterAll(() => hub.close());

  it("T15: connects in the background, lists tools and resources, calls a tool, reads a resource", async () => {
    const status = await hub.waitForServers(60_000, never);
    expect(status).toEqual({ ready: ["everything", "strict"], pending: [] });

    const echo = hub.getTool("everything", "echo");
    expect(echo).toMatchObject({ server: "everything", name: "echo", autoApprove: true });
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(hub.getTool("everything", "get-sum")?.autoApprove).toBe(false);

    const result = await hub.callTool({ server: "everything", tool: "echo", arguments: { message: "hello" }, signal: never });
    expect(result).toEqual({ content: [{ type: "text", text: "Echo: hello" }], isError: false });

    const image = await hub.callTool({ server: "everything", tool: "get-tiny-image", arguments: {}, signal: never });
    expect(image.content.some((part) => part.type === "image" && part.mediaType === "image/png" && part.data.length > 100)).toBe(true);

    const resource = await hub.readResource({ server: "everything", uri: "demo://resource/dynamic/text/7", signal: never });
    expect(textOf(resource)).toContain("Resource 7: This is a plaintext resource");

    const xml = hub.promptSection("xml");
    expect(xml).toContain("## everything");
    expect(xml).toContain("- echo: ");
    expect(xml).toContain('Input schema: {"');
    expect(xml).toContain("demo://resource/dynamic/text/{resourceId}");
    const native = hub.promptSection("native");
    expect(native).toContain("mcp__everything__echo");
    expect(native).not.toContain("Input schema");

    const schemas = hub.nativeToolSchemas();
    const nativeEcho = schemas.find((schema) => schema.name === "mcp__everything__echo");
    expect(nativeEcho?.inputSchema).toMatchObject({ type: "object" });
    for (const schema of schemas) {
      const reference = hub.resolveNativeToolName(schema.name);
      expect(hub.getTool(reference!.server, reference!.tool)).toBeDefined();
    }
  });

  it("follows tools/list_changed: tools the server adds after connecting appear", async () => {
    await hub.waitForServers(60_000, never);
    // server-everything registers more tools once initialized and announces them.
    // The announcement may come while the first listing runs (the lists are then fetched again
    // once connected) or after it: either way a tools_changed event follows.
    const announced = (): boolean => events.of("tools_changed").some((event) => event.server === "everything");
    while (hub.getTool("everything", "simulate-research-query") === undefined || !announced()) {
      await events.next("tools_changed", "everything");
    }
    expect(hub.promptSection("xml")).toContain("- simulate-research-query: ");
  });

  it("passes the server's log messages on as events", async () => {
    await hub.waitForServers(60_000, never);
    const logged = events.next("server_log", "everything");
    const toggled = await hub.callTool({ server: "everything", tool: "toggle-simulated-logging", arguments: {}, signal: never });
    expect(textOf(toggled)).toMatch(/started/i);
    const log = await logged;
    expect(log.level).toMatch(/^(debug|info|notice|warning|error|critical|alert|emergency)$/);
    expect(log.message).toMatch(/-level message|level-message/);
    await hub.callTool({ server: "everything", tool: "toggle-simulated-logging", arguments: {}, signal: never });
  });

  it("forwards progress notifications while a long call runs", async () => {
    await hub.waitForServers(60_000, never);
    const seenBefore = events.events.length;
    const messages: string[] = [];
    const result = await hub.callTool({
      server: "everything",
      tool: "trigger-long-running-operation",
      arguments: { duration: 0.3, steps: 3 },
      signal: never,
      onProgress: (message) => messages.push(message),
    });
    expect(textOf(result)).toContain("Long running operation completed");
    // The SDK drops the progress handler when the answer arrives, so the last step
    // (sent just before the answer) may or may not be seen.
    expect(messages.slice(0, 2)).toEqual(["progress 1/3", "progress 2/3"]);
    const progressEvents = events.events.slice(seenBefore).filter((event) => event.type === "progress");
    expect(progressEvents.slice(0, 2).map((event) => [event.tool, event.progress, event.total])).toEqual([
      ["trigger-long-running-operation", 1, 3],
      ["trigger-long-running-operation", 2, 3],
    ]);
  });

  it("cancels a call that exceeds the server's timeout, and the server keeps working", async () => {
    await hub.waitForServers(60_000, never);
    const call = hub.callTool({
      server: "strict",
      tool: "trigger-long-running-operation",
      arguments: { duration: 60, steps: 1 },
      signal: never,
    });
    await expect(call).rejects.toThrow(McpCallError);
    await expect(call).rejects.toThrow(/took longer than 0\.3 s and was cancelled.*"timeout"/);
    const after = await hub.callTool({ server: "strict", tool: "echo", arguments: { message: "still here" }, signal: never });
    expect(textOf(after)).toBe("Echo: still here");
  });

  it("does not leave listeners on the task's signal after calls", async () => {
    await hub.waitForServers(60_000, never);
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, "addEventListener");
    const removed = vi.spyOn(controller.signal, "removeEventListener");
    for (let call = 0; call < 3; call++) {
      await hub.callTool({ server: "everything", tool: "echo", arguments: { message: "x" }, signal: controller.signal });
    }
    expect(added.mock.calls.map((call) => call[0])).toEqual(["abort", "abort", "abort"]);
    expect(removed.mock.calls.map((call) => call[0])).toEqual(["abort", "abort", "abort"]);
  });

  it("cancels a call when the task aborts", async () => {
    await hub.waitForServers(60_000, never);
    const controller = new AbortController();
    const call = hub.callTool({
      server: "everything",
      tool: "trigger-long-running-operation",
      arguments: { duration: 60, steps: 60 },
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(call).rejects.toThrow(/was cancelled/);
  });

  it("explains calls that cannot be made", async () => {
    await hub.waitForServers(60_000, never);
    await expect(hub.callTool({ server: "nope", tool: "echo", arguments: {}, signal: never })).rejects.toThrow('There is no MCP server named "nope". Configured servers: everything, strict.');
    await expect(hub.callTool({ server: "everything", tool: "nope", arguments: {}, signal: never })).rejects.toThrow(/has no tool "nope". Its tools: .*echo/);
    await expect(hub.readResource({ server: "everything", uri: "demo://missing/1", signal: never })).rejects.toThrow(/answered with an error for resource "demo:\/\/missing\/1"/);
  });
});

describe("McpHub lifecycle", () => {
  it("stops the server processes on close", async () => {
    const hub = hubWith({ servers: [serverConfig("everything", everythingStdio())] });
    hub.start();
    await hub.waitForServers(60_000, never);
    const pid = hub.serverPid("everything");
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid!)).toBe(true);
    await hub.close();
    expect(isAlive(pid!)).toBe(false);
    expect(hub.serverStates()[0]?.status).toBe("closed");
  });
});

describe("McpHub when servers misbehave", () => {
  it("T15: a server slow to start is reported pending, then joins when ready", async () => {
    const folder = await makeTemporaryFolder("slow");
    cleanups.push(folder.remove);
    const gate = join(folder.path, "go");
    const events = new EventLog();
    const hub = hubWith({
      servers: [serverConfig("fast", everythingStdio()), serverConfig("slow", await gatedEverythingStdio(folder.path, gate))],
      onEvent: events.listener,
    });
    const fastConnected = events.next("server_connected", "fast");
    hub.start();
    await fastConnected;
    const waited = await hub.waitForServers(100, never);
    expect(waited).toEqual({ ready: ["fast"], pending: ["slow"] });
    expect(hub.listTools().every((tool) => tool.server === "fast")).toBe(true);
    expect(hub.promptSection("xml")).toContain("Configured but not connected (their tools cannot be used now): slow");

    await writeFile(gate, "");
    expect(await hub.waitForServers(60_000, never)).toEqual({ ready: ["fast", "slow"], pending: [] });
    expect(hub.getTool("slow", "echo")).toBeDefined();
  });

  it("waiting for servers starts the hub if nobody did", async () => {
    const hub = hubWith({ servers: [serverConfig("everything", everythingStdio())] });
    expect(await hub.waitForServers(600_000, never)).toEqual({ ready: ["everything"], pending: [] });
  });

  it("waiting for servers ends when the task aborts", async () => {
    const folder = await makeTemporaryFolder("abort");
    cleanups.push(folder.remove);
    const hub = hubWith({ servers: [serverConfig("slow", await gatedEverythingStdio(folder.path, join(folder.path, "never")))] });
    hub.start();
    const controller = new AbortController();
    const waiting = hub.waitForServers(600_000, controller.signal);
    controller.abort();
    expect(await waiting).toEqual({ ready: [], pending: ["slow"] });
  });

  it("a server that crashes mid-task loses its tools, then is reconnected", async () => {
    const events = new EventLog();
    const hub = hubWith({ servers: [serverConfig("everything", everythingStdio())], onEvent: events.listener });
    hub.start();
    await hub.waitForServers(60_000, never);
    const pid = hub.serverPid("everything")!;
    expect(hub.getTool("everything", "echo")).toBeDefined();

    const disconnected = events.next("server_disconnected", "everything");
    const reconnected = events.next("server_connected", "everything");
    process.kill(pid, "SIGKILL");
    const lost = await disconnected;
    expect(lost.retryInMs).toBe(50);
    if (hub.serverStates()[0]?.status !== "connected") {
      expect(hub.listTools()).toEqual([]);
      expect(hub.promptSection("xml")).toContain("not connected (their tools cannot be used now): everything");
    }

    await reconnected;
    expect(hub.serverPid("everything")).not.toBe(pid);
    const result = await hub.callTool({ server: "everything", tool: "echo", arguments: { message: "back" }, signal: never });
    expect(textOf(result)).toBe("Echo: back");
  });

  it("a server that crashes on cue (as end-to-end tests do it) comes back", async () => {
    const folder = await makeTemporaryFolder("crash");
    cleanups.push(folder.remove);
    const crashFile = join(folder.path, "crash");
    const pidFile = join(folder.path, "pid");
    const events = new EventLog();
    const hub = hubWith({ servers: [serverConfig("wrapped", await wrappedEverythingStdio(folder.path, { crashFile, pidFile }))], onEvent: events.listener });
    await hub.waitForServers(60_000, never);
    expect(Number(await readFile(pidFile, "utf8"))).toBe(hub.serverPid("wrapped"));
    const disconnected = events.next("server_disconnected", "wrapped");
    await writeFile(crashFile, "");
    await disconnected;
    // The next start would crash at once too: let it live, then it reconnects.
    await rm(crashFile);
    await events.next("server_connected", "wrapped");
    expect(hub.getTool("wrapped", "echo")).toBeDefined();
  });

  it("calls to a crashed server fail clearly while it is down", async () => {
    const events = new EventLog();
    // A long first retry delay keeps the server down while the test looks.
    const hub = hubWith({
      servers: [serverConfig("everything", everythingStdio())],
      onEvent: events.listener,
      reconnect: { initialDelayMs: 600_000 },
    });
    hub.start();
    await hub.waitForServers(60_000, never);
    const disconnected = events.next("server_disconnected", "everything");
    const inFlight = hub.callTool({ server: "everything", tool: "trigger-long-running-operation", arguments: { duration: 60, steps: 60 }, signal: never });
    process.kill(hub.serverPid("everything")!, "SIGKILL");
    await disconnected;
    await expect(inFlight).rejects.toThrow('MCP server "everything" went away during the call of tool "trigger-long-running-operation"; it will be reconnected, try again later.');
    expect(hub.listTools()).toEqual([]);
    expect(hub.nativeToolSchemas()).toEqual([]);
    expect(hub.serverStatus()).toEqual([{ name: "everything", connected: false, error: 'MCP server "everything" disconnected: the connection closed' }]);
    await expect(hub.callTool({ server: "everything", tool: "echo", arguments: {}, signal: never })).rejects.toThrow(/MCP server "everything" is not connected/);
  });

  it("a server that never starts gets a clear error while the others work", async () => {
    const events = new EventLog();
    const hub = hubWith({
      servers: [
        serverConfig("missing", { type: "stdio", command: "/nonexistent/cairn-no-such-server", args: [], env: {} }),
        serverConfig("exits", { type: "stdio", command: process.execPath, args: ["-e", "console.error('bad token'); process.exit(3)"], env: {} }),
        serverConfig("everything", everythingStdio()),
      ],
      onEvent: events.listener,
      reconnect: { initialDelayMs: 600_000 },
    });
    hub.start();
    const status = await hub.waitForServers(600_000, never);
    // Why each is pending, in one line each, for the task's warning (the server's output stays in its status).
    expect(status).toMatchObject({ ready: ["everything"], pending: ["missing", "exits"] });
    expect(status.errors?.["missing"]).toMatch(/^the command was not found/);
    expect(status.errors?.["exits"]).toMatch(/^[^\n]+$/);
    const byName = new Map(hub.serverStatus().map((entry) => [entry.name, entry]));
    expect(byName.get("missing")?.error).toMatch(/cannot connect to MCP server "missing": the command was not found/);
    expect(byName.get("exits")?.error).toMatch(/cannot connect to MCP server "exits": .*\n.*bad token/s);
    expect(
      events
        .of("server_error")
        .map((event) => event.server)
        .sort(),
    ).toEqual(["exits", "missing"]);
    const result = await hub.callTool({ server: "everything", tool: "echo", arguments: { message: "ok" }, signal: never });
    expect(textOf(result)).toBe("Echo: ok");
  });

  it("skips disabled servers", async () => {
    const hub = hubWith({ servers: [serverConfig("off", everythingStdio(), { disabled: true })] });
    hub.start();
    expect(await hub.waitForServers(600_000, never)).toEqual({ ready: [], pending: [] });
    expect(hub.serverStatus()).toEqual([]);
    expect(hub.serverStates()).toEqual([{ name: "off", status: "disabled", tools: [] }]);
    expect(hub.promptSection("xml")).toBe("");
  });
});

describe("McpHub with remote and other servers", () => {
  let http: HttpEverything | undefined;
  afterEach(async () => {
    await http?.stop();
    http = undefined;
  });

  it("talks to server-everything over streamable HTTP", async () => {
    http = await startHttpEverything();
    const hub = hubWith({ servers: [serverConfig("remote", { type: "streamableHttp", url: http.url, headers: { "X-Test": "1" } })] });
    hub.start();
    expect(await hub.waitForServers(60_000, never)).toEqual({ ready: ["remote"], pending: [] });
    const result = await hub.callTool({ server: "remote", tool: "echo", arguments: { message: "over http" }, signal: never });
    expect(textOf(result)).toBe("Echo: over http");
    const resource = await hub.readResource({ server: "remote", uri: "demo://resource/dynamic/text/2", signal: never });
    expect(textOf(resource)).toContain("Resource 2:");
  });

  it("talks to server-everything over the older SSE transport", async () => {
    http = await startHttpEverything(undefined, "sse");
    const hub = hubWith({ servers: [serverConfig("legacy", { type: "sse", url: http.url, headers: {} })] });
    hub.start();
    expect(await hub.waitForServers(60_000, never)).toEqual({ ready: ["legacy"], pending: [] });
    const result = await hub.callTool({ server: "legacy", tool: "echo", arguments: { message: "over sse" }, signal: never });
    expect(textOf(result)).toBe("Echo: over sse");
  });

  it("notices a remote server that went away and reconnects when it is back", async () => {
    http = await startHttpEverything();
    const events = new EventLog();
    const hub = hubWith({
      servers: [serverConfig("remote", { type: "streamableHttp", url: http.url, headers: {} })],
      onEvent: events.listener,
      healthCheckIntervalMs: 100,
    });
    hub.start();
    await hub.waitForServers(60_000, never);
    const disconnected = events.next("server_disconnected", "remote");
    await http.stop();
    await disconnected;
    expect(hub.listTools()).toEqual([]);

    const reconnected = events.next("server_connected", "remote");
    http = await startHttpEverything(http.port);
    await reconnected;
    const result = await hub.callTool({ server: "remote", tool: "echo", arguments: { message: "again" }, signal: never });
    expect(textOf(result)).toBe("Echo: again");
  });

  it("uses server-filesystem in a temporary folder", async () => {
    const folder = await makeTemporaryFolder("fs");
    cleanups.push(folder.remove);
    await writeFile(join(folder.path, "notes.txt"), "cairn was here\n");
    const hub = hubWith({ servers: [serverConfig("files", filesystemStdio(folder.path))] });
    hub.start();
    await hub.waitForServers(60_000, never);
    const listing = await hub.callTool({ server: "files", tool: "list_directory", arguments: { path: folder.path }, signal: never });
    expect(textOf(listing)).toContain("[FILE] notes.txt");
    const read = await hub.callTool({
      server: "files",
      tool: "read_text_file",
      arguments: { path: join(folder.path, "notes.txt") },
      signal: never,
    });
    expect(textOf(read)).toContain("cairn was here");
    const outside = await hub.callTool({ server: "files", tool: "read_text_file", arguments: { path: "/etc/hostname" }, signal: never });
    expect(outside.isError).toBe(true);
  });
});
