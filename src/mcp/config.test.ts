import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expandEnvironment, loadMcpConfig, McpConfigError, parseMcpConfig, type McpServerConfig } from "./config.js";
import { makeTemporaryFolder } from "./test-support/servers.js";

const file = "/home/user/.config/cairn/mcp.json";
const parse = (raw: unknown) => parseMcpConfig(raw, { file, baseDirectory: "/home/user/.config/cairn" });

function errorOf(raw: unknown): string {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be rejected");
}

describe("parseMcpConfig", () => {
  it("reads stdio and remote servers in the common mcpServers format", () => {
    const { servers, warnings } = parse({
      mcpServers: {
        files: { command: "npx", args: ["-y", "server"], env: { TOKEN: "x" }, cwd: "work", autoApprove: ["read"], timeout: 5 },
        remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer y" } },
        legacy: { url: "http://localhost:3000/sse", type: "sse", disabled: true },
        aliased: { url: "http://localhost:3000/mcp", transport: "http" },
      },
    });
    expect(warnings).toEqual([]);
    expect(servers).toEqual([
      {
        name: "files",
        transport: { type: "stdio", command: "npx", args: ["-y", "server"], env: { TOKEN: "x" }, cwd: "/home/user/.config/cairn/work" },
        disabled: false,
        autoApprove: ["read"],
        timeoutMs: 5000,
        source: file,
      },
      {
        name: "remote",
        transport: { type: "streamableHttp", url: "https://example.com/mcp", headers: { Authorization: "Bearer y" } },
        disabled: false,
        autoApprove: [],
        timeoutMs: 60_000,
        source: file,
      },
      {
        name: "legacy",
        transport: { type: "sse", url: "http://localhost:3000/sse", headers: {} },
        disabled: true,
        autoApprove: [],
        timeoutMs: 60_000,
        source: file,
      },
      {
        name: "aliased",
        transport: { type: "streamableHttp", url: "http://localhost:3000/mcp", headers: {} },
        disabled: false,
        autoApprove: [],
        timeoutMs: 60_000,
        source: file,
      },
    ]);
  });

  it("names the file and the server in every error, and lists them all", () => {
    const message = errorOf({
      mcpServers: {
        both: { command: "a", url: "http://x" },
        none: {},
        badArgs: { command: "a", args: "one two" },
        badTimeout: { command: "a", timeout: 0 },
        badUrl: { url: "not a url" },
        ftp: { url: "ftp://example.com" },
        badType: { url: "http://x", type: "websocket" },
        badEnv: { command: "a", env: { PORT: 3000 } },
        stdioType: { command: "a", type: "sse" },
      },
    });
    expect(message).toContain(`${file}: server "both": give either "command" (a local server) or "url" (a remote one), not both`);
    expect(message).toContain(`${file}: server "none": needs "command" (a local server) or "url" (a remote one)`);
    expect(message).toContain(`${file}: server "badArgs": "args" must be an array of strings`);
    expect(message).toContain(`${file}: server "badTimeout": "timeout" must be a positive number of seconds`);
    expect(message).toContain(`${file}: server "badUrl": "url" is not a valid URL: not a url`);
    expect(message).toContain(`${file}: server "ftp": "url" must start with http:// or https://`);
    expect(message).toContain(`${file}: server "badType": unknown transport "websocket"; use "streamableHttp" or "sse"`);
    expect(message).toContain(`${file}: server "badEnv": "env.PORT" must be a string`);
    expect(message).toContain(`${file}: server "stdioType": "type" is "sse" but a "command" server uses "stdio"`);
  });

  it("rejects a file without mcpServers", () => {
    expect(errorOf({ servers: {} })).toBe(`${file}: expected an object {"mcpServers": {"<name>": {...}}}`);
    expect(errorOf([])).toContain("expected an object");
  });

  it("warns about unknown settings instead of failing", () => {
    const { warnings } = parse({ mcpServers: { a: { command: "a", alwaysAllow: ["x"] } }, extra: 1 });
    expect(warnings).toEqual([`${file}: unknown top-level key "extra" ignored`, `${file}: server "a": unknown setting "alwaysAllow" ignored`]);
  });

  it("expands ${VAR} and ${VAR:-default} from the environment", () => {
    expect(expandEnvironment("Bearer ${TOKEN}", { TOKEN: "abc" })).toBe("Bearer abc");
    expect(expandEnvironment("${MISSING:-fallback}/x", {})).toBe("fallback/x");
    expect(expandEnvironment("${MISSING}", {})).toBe("");
  });
});

describe("loadMcpConfig", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  async function folders(): Promise<{ userConfigDir: string; workspace: string }> {
    const root = await makeTemporaryFolder("config");
    cleanups.push(root.remove);
    const userConfigDir = join(root.path, "config");
    const workspace = join(root.path, "project");
    await mkdir(userConfigDir, { recursive: true });
    await mkdir(join(workspace, ".cairn"), { recursive: true });
    return { userConfigDir, workspace };
  }

  it("reads nothing when there is no file", async () => {
    const paths = await folders();
    expect(await loadMcpConfig({ ...paths, projectTrusted: true })).toEqual({ servers: [], warnings: [] });
  });

  it("reads the project file only once the folder is trusted; a project server replaces a user one", async () => {
    const paths = await folders();
    await writeFile(join(paths.userConfigDir, "mcp.json"), JSON.stringify({ mcpServers: { shared: { command: "user" }, mine: { command: "m" } } }));
    const projectFile = join(paths.workspace, ".cairn", "mcp.json");
    await writeFile(projectFile, JSON.stringify({ mcpServers: { shared: { command: "project", cwd: "tools" } } }));

    const untrusted = await loadMcpConfig({ ...paths, projectTrusted: false });
    expect(untrusted.servers.map((server) => [server.name, server.transport.type === "stdio" && server.transport.command])).toEqual([
      ["shared", "user"],
      ["mine", "m"],
    ]);
    expect(untrusted.warnings).toEqual([`${projectFile}: ignored because this folder is not trusted yet`]);

    const trusted = await loadMcpConfig({ ...paths, projectTrusted: true });
    const shared = trusted.servers.find((server) => server.name === "shared");
    expect(shared?.transport).toMatchObject({ command: "project", cwd: join(paths.workspace, "tools") });
    expect(shared?.source).toBe(projectFile);
    expect(trusted.warnings).toEqual([`${projectFile}: server "shared" replaces the one in ${join(paths.userConfigDir, "mcp.json")}`]);
  });

  it("says which file is not valid JSON", async () => {
    const paths = await folders();
    const userFile = join(paths.userConfigDir, "mcp.json");
    await writeFile(userFile, "{ mcpServers: ");
    await expect(loadMcpConfig({ ...paths, projectTrusted: false })).rejects.toThrow(new RegExp(`^${userFile.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: is not valid JSON .*fix or remove the file$`));
  });
});

describe("loadMcpConfig: Claude Code's MCP files", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  async function machine(): Promise<{ userConfigDir: string; workspace: string; claudeStateFile: string }> {
    const root = await makeTemporaryFolder("claude");
    cleanups.push(root.remove);
    const userConfigDir = join(root.path, "config");
    const workspace = join(root.path, "project");
    await mkdir(userConfigDir, { recursive: true });
    await mkdir(workspace, { recursive: true });
    return { userConfigDir, workspace, claudeStateFile: join(root.path, ".claude.json") };
  }

  const commands = (servers: McpServerConfig[]): Array<[string, string, string]> => servers.map((server) => [server.name, server.transport.type === "stdio" ? server.transport.command : "", server.source]);

  it("reads ~/.claude.json's user servers and this project's own, and .mcp.json once the folder is trusted; Claude Code's precedence (local > project > user)", async () => {
    const paths = await machine();
    const mcpJson = join(paths.workspace, ".mcp.json");
    await writeFile(mcpJson, JSON.stringify({ mcpServers: { team: { type: "stdio", command: "team-server" }, shared: { command: "from-project" } } }));
    await writeFile(
      paths.claudeStateFile,
      JSON.stringify({
        numStartups: 3,
        mcpServers: { mine: { type: "stdio", command: "my-server", env: {} }, shared: { command: "from-user" } },
        projects: { [paths.workspace]: { mcpServers: { local: { command: "local-server" }, team: { command: "my-own-team" } } }, "/elsewhere": { mcpServers: { other: { command: "x" } } } },
      }),
    );
    const local = `${paths.claudeStateFile} (projects["${paths.workspace}"])`;

    const untrusted = await loadMcpConfig({ ...paths, projectTrusted: false });
    expect(commands(untrusted.servers)).toEqual([
      ["mine", "my-server", paths.claudeStateFile],
      ["shared", "from-user", paths.claudeStateFile],
      ["local", "local-server", local],
      ["team", "my-own-team", local],
    ]);
    expect(untrusted.warnings).toEqual([`${mcpJson}: ignored because this folder is not trusted yet`]);

    const trusted = await loadMcpConfig({ ...paths, projectTrusted: true });
    expect(commands(trusted.servers)).toEqual([
      ["mine", "my-server", paths.claudeStateFile],
      ["shared", "from-project", mcpJson],
      ["team", "my-own-team", local],
      ["local", "local-server", local],
    ]);
    expect(trusted.warnings).toEqual([`${mcpJson}: server "shared" replaces the one in ${paths.claudeStateFile}`]);
  });

  it("a broken ~/.claude.json or a server cairn cannot run there is a warning, never a stop; without the option it is not read", async () => {
    const paths = await machine();
    await writeFile(paths.claudeStateFile, JSON.stringify({ mcpServers: { good: { command: "ok" }, ide: { type: "ws-ide", url: "ws://127.0.0.1:1" } } }));
    const partly = await loadMcpConfig({ ...paths, projectTrusted: false });
    expect(commands(partly.servers)).toEqual([["good", "ok", paths.claudeStateFile]]);
    expect(partly.warnings).toHaveLength(1);
    expect(partly.warnings[0]).toContain(`${paths.claudeStateFile}: server "ide"`);
    expect(partly.warnings[0]).toMatch(/\(ignored\)$/);

    await writeFile(paths.claudeStateFile, "{ half written");
    const broken = await loadMcpConfig({ ...paths, projectTrusted: false });
    expect(broken.servers).toEqual([]);
    expect(broken.warnings).toEqual([expect.stringMatching(new RegExp(`^${paths.claudeStateFile.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: is not valid JSON .*; its MCP servers were not started$`))]);

    const { claudeStateFile: _unused, ...withoutClaude } = paths;
    expect(await loadMcpConfig({ ...withoutClaude, projectTrusted: true })).toEqual({ servers: [], warnings: [] });
  });
});
