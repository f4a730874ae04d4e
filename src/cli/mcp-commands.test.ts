import { Command, CommanderError } from "commander";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { everythingEntry, makeTemporaryFolder } from "../mcp/test-support/servers.js";
import { registerMcpCommands } from "./mcp-commands.js";
import { captureOutput } from "./test-support/capture-output.js";

let root: { path: string; remove(): Promise<void> };
let userConfigDir: string;
let dataDir: string;
let workspace: string;

beforeEach(async () => {
  root = await makeTemporaryFolder("cli");
  userConfigDir = join(root.path, "config");
  dataDir = join(root.path, "data");
  workspace = join(root.path, "project");
  await mkdir(workspace, { recursive: true });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await root.remove();
});

interface Outcome {
  status: number;
  stdout: string;
  stderr: string;
}

async function cairnMcp(...args: string[]): Promise<Outcome> {
  const program = new Command("cairn").exitOverride();
  registerMcpCommands(program, { userConfigDir: () => userConfigDir, dataDir: () => dataDir, workspace: () => workspace });
  const output = { stdout: "", stderr: "" };
  try {
    await captureOutput(output, () => program.parseAsync(["mcp", ...args], { from: "user" }));
    return { status: 0, ...output };
  } catch (error) {
    if (error instanceof CommanderError) return { status: error.exitCode, ...output };
    throw error;
  }
}

const configFile = (): string => join(userConfigDir, "mcp.json");
type ConfigFile = { mcpServers: Record<string, unknown> } & Record<string, unknown>;
const readConfig = async (): Promise<ConfigFile> => JSON.parse(await readFile(configFile(), "utf8")) as ConfigFile;

describe("cairn mcp add / remove", () => {
  it("adds stdio and remote servers to the user's mcp.json", async () => {
    const added = await cairnMcp("add", "files", "--env", "TOKEN=a=b", "--timeout", "30", "--", "npx", "-y", "server-filesystem", "/tmp");
    expect(added).toEqual({ status: 0, stdout: `Added MCP server "files" in ${configFile()}\n`, stderr: "" });
    expect(await cairnMcp("add", "remote", "https://example.com/mcp", "-H", "Authorization=Bearer x", "--auto-approve", "search", "fetch")).toMatchObject({
      status: 0,
    });
    expect(await cairnMcp("add", "old", "http://localhost:9/sse", "--transport", "sse")).toMatchObject({ status: 0 });
    expect(await readConfig()).toEqual({
      mcpServers: {
        files: { command: "npx", args: ["-y", "server-filesystem", "/tmp"], env: { TOKEN: "a=b" }, timeout: 30 },
        remote: { url: "https://example.com/mcp", type: "streamableHttp", headers: { Authorization: "Bearer x" }, autoApprove: ["search", "fetch"] },
        old: { url: "http://localhost:9/sse", type: "sse" },
      },
    });
  });

  it("refuses a duplicate name unless --force, and bad input, without touching the file", async () => {
    await cairnMcp("add", "files", "node", "server.js");
    const before = await readFile(configFile(), "utf8");
    const duplicate = await cairnMcp("add", "files", "other");
    expect(duplicate.status).toBe(2);
    expect(duplicate.stderr).toContain('a server named "files" already exists; remove it first (cairn mcp remove files) or add --force');
    expect((await cairnMcp("add", "bad", "node", "--timeout", "soon")).stderr).toContain('server "bad": "timeout" must be a positive number of seconds');
    expect((await cairnMcp("add", "bad", "https://x.test/mcp", "--env", "A=1")).stderr).toContain("--env and --cwd are for local (stdio) servers");
    expect((await cairnMcp("add", "bad", "node", "--env", "novalue")).stderr).toContain('--env expects KEY=VALUE, got "novalue"');
    expect(await readFile(configFile(), "utf8")).toBe(before);

    expect((await cairnMcp("add", "files", "other", "--force")).stdout).toContain('Replaced MCP server "files"');
    expect((await readConfig()).mcpServers["files"]).toEqual({ command: "other" });
  });

  it("explains how to pass a command whose arguments start with -", async () => {
    const outcome = await cairnMcp("add", "files", "npx", "-y", "server");
    expect(outcome.status).not.toBe(0);
    expect(outcome.stderr).toContain("unknown option '-y'");
    expect(outcome.stderr).toContain("put -- before its command: cairn mcp add files -- npx -y some-server");
  });

  it("removes a server and keeps the rest of the file", async () => {
    await mkdir(userConfigDir, { recursive: true });
    await writeFile(configFile(), JSON.stringify({ note: "mine", mcpServers: { a: { command: "a" }, b: { command: "b" } } }));
    expect(await cairnMcp("remove", "a")).toEqual({ status: 0, stdout: `Removed MCP server "a" from ${configFile()}\n`, stderr: "" });
    expect(await readConfig()).toEqual({ note: "mine", mcpServers: { b: { command: "b" } } });
    const missing = await cairnMcp("remove", "zzz");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('there is no server named "zzz" (servers: b)');
  });

  it("never rewrites a file it cannot parse", async () => {
    await mkdir(userConfigDir, { recursive: true });
    await writeFile(configFile(), "{ broken");
    const outcome = await cairnMcp("add", "a", "node");
    expect(outcome.status).toBe(2);
    expect(outcome.stderr).toContain("is not valid JSON");
    expect(await readFile(configFile(), "utf8")).toBe("{ broken");
  });
});

describe("cairn mcp list / approve", () => {
  it("says how to add a server when there is none", async () => {
    const outcome = await cairnMcp("list");
    expect(outcome.stdout).toContain("No MCP servers configured");
    expect(outcome.stdout).toContain("cairn mcp add <name> <command-or-url>");
  });

  it("shows each server's status and tools, and the approval state", async () => {
    await cairnMcp("add", "everything", process.execPath, everythingEntry, "stdio", "--auto-approve", "echo");
    await cairnMcp("add", "broken", join(root.path, "no-such-program"));
    await mkdir(userConfigDir, { recursive: true });
    const config = await readConfig();
    config.mcpServers["off"] = { command: "node", disabled: true };
    await writeFile(configFile(), JSON.stringify(config));

    const listed = await cairnMcp("list", "--json", "--timeout", "60");
    expect(listed.status).toBe(0);
    const report = JSON.parse(listed.stdout) as Array<{ name: string; status: string; error?: string; review: string; tools: Array<{ name: string; autoApprove: boolean }> }>;
    expect(report.map((server) => [server.name, server.status, server.review])).toEqual([
      ["everything", "connected", "new_server"],
      ["broken", "waiting", "approved"],
      ["off", "disabled", "approved"],
    ]);
    expect(report[0]!.tools).toContainEqual(expect.objectContaining({ name: "echo", autoApprove: true }));
    expect(report[1]!.error).toContain("the command was not found");

    const text = await cairnMcp("list", "--timeout", "60");
    expect(text.stdout).toContain("everything  (stdio: ");
    expect(text.stdout).toMatch(/status: connected, \d+ tools/);
    expect(text.stdout).toContain("    echo [auto-approve]  ");
    expect(text.stdout).toContain("tools not approved yet: check them, then run `cairn mcp approve everything`");
    expect(text.stdout).toMatch(/broken .*\n.*\n {2}status: not connected\n {4}cannot connect to MCP server "broken"/);
    expect(text.stdout).toContain("off  (stdio: node)\n  from: ");

    const approved = await cairnMcp("approve", "everything");
    expect(approved.stdout).toContain("echo\n  Echoes back the input");
    expect(approved.stdout).toMatch(/Approved the \d+ tools of "everything"/);
    const after = JSON.parse((await cairnMcp("list", "--json", "--timeout", "60")).stdout) as Array<{ name: string; review: string }>;
    expect(after[0]).toMatchObject({ name: "everything", review: "approved" });
  });
});
