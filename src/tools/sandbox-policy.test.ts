/** #14 the OS sandbox tested for real: execute_command under bubblewrap. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkBubblewrap } from "../security/sandbox.js";
import { launchProcess } from "../security/process-launch.js";
import type { SandboxMode } from "../security/sandbox.js";
import { createLaunchPolicy } from "./sandbox-policy.js";
import { WorkspaceGuard } from "./workspace-guard.js";
import { createRecordingContext, textOf } from "./test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "./test-support/test-workspace.js";

const usable = checkBubblewrap();
if (!usable.ok) console.warn(`SKIPPED sandbox tests: bubblewrap (Debian package "bubblewrap") is not usable here: ${usable.message}`);

let workspace: TestWorkspace;
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "inside\n", ".cairnignore": "secret.env\nvault/\n", "secret.env": "KEY=canary-sandbox\n", "vault/key.pem": "PEM-canary\n", ".git/config": "[core]\n" });
});
afterEach(() => workspace.cleanup());

async function run(command: string, mode: SandboxMode = "workspace-write", network = false): Promise<string> {
  const launchPolicy = createLaunchPolicy({ workspace: workspace.root, sandbox: mode, network, allowEnv: [], userConfigDir: `${workspace.base}/user-config` });
  const executor = createTestExecutor(workspace, { yes: true, launchPolicy });
  const outcome = await executor.executeTool(toolCall("execute_command", { command, requires_approval: "false" }), createRecordingContext());
  return textOf(outcome.content);
}

// The markers are built when the command runs, so the command's own text (echoed in the result) never matches them.
const connect = (target: number): string => `node -e "require('net').connect(${target}, '127.0.0.1').on('data', (d) => console.log('GO'+'T', String(d).trim())).on('error', (e) => console.log('NET'+'FAIL', e.code))"`;

describe.skipIf(!usable.ok)("the bubblewrap sandbox confines what a command can see, write and reach", () => {
  it("the workspace is writable, the rest of the file system is not, and /tmp is private", async () => {
    const probe = `/etc/cairn-sandbox-probe-${process.pid}`;
    let output: string;
    try {
      output = await run(`echo made > made.txt; echo escaped > ${probe}; echo escaped > ${workspace.base}/escaped.txt; echo private > /tmp/cairn-sandbox-private.txt; cat a.txt`);
      expect(existsSync(probe)).toBe(false);
    } finally {
      rmSync(probe, { force: true });
    }
    expect(readFileSync(workspace.path("made.txt"), "utf8")).toBe("made\n");
    expect(existsSync(`${workspace.base}/escaped.txt`)).toBe(false);
    expect(existsSync("/tmp/cairn-sandbox-private.txt")).toBe(false);
    expect(output).toMatch(/Read-only file system/);
    expect(output).toContain("inside");
  });

  it("a program or script under /tmp outside the workspace (an MCP server in a checkout there) stays visible, read-only", () => {
    const folder = mkdtempSync("/tmp/cairn-sandbox-program-");
    try {
      const script = `${folder}/server.js`;
      writeFileSync(script, "require('fs').writeFile(__filename + '.changed', 'x', (error) => console.log('ran', error ? error.code : 'wrote'));\n");
      const policy = createLaunchPolicy({ workspace: workspace.root, sandbox: "workspace-write", network: false, allowEnv: [], userConfigDir: `${workspace.base}/user-config` });
      const launch = launchProcess({ policy, program: process.execPath, args: [script], cwd: workspace.root });
      const result = spawnSync(launch.file, launch.args, { env: launch.env, encoding: "utf8", timeout: 30_000 });
      expect(result.stdout.trim()).toBe("ran EROFS");
      expect(existsSync(`${script}.changed`)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("read-only mode: the workspace cannot be written either", async () => {
    const output = await run("echo x > new.txt", "read-only");
    expect(existsSync(workspace.path("new.txt"))).toBe(false);
    expect(output).toMatch(/Read-only file system/);
  });

  it("no network unless --sandbox-network", async () => {
    const closed = await run(connect(port));
    expect(closed).toMatch(/NETFAIL ECONNREFUSED/);
    expect(closed).not.toContain("GOT hello");
    const open = await run(connect(port), "workspace-write", true);
    expect(open).toContain("GOT hello from the host");
    expect(open).not.toMatch(/NETFAIL /);
  });

  it("ignored files and protected paths are masked: commands naming them run but see nothing, and cannot change them", async () => {
    const output = await run("cat secret.env; cat vault/key.pem; ls vault; echo '[core] fsmonitor = touch pwned' >> .git/config; echo '!secret.env' >> .cairnignore");
    expect(output).not.toContain("canary");
    expect(readFileSync(workspace.path(".git/config"), "utf8")).toBe("[core]\n");
    expect(readFileSync(workspace.path(".cairnignore"), "utf8")).toBe("secret.env\nvault/\n");
  });

  it("protected folders that do not exist yet cannot be created by a sandboxed command", async () => {
    // Computed paths: the parse cannot see them, so only the sandbox's mounts stop them.
    const output = await run("d=.cai; r=.clinerules/ho; mkdir -p ${d}rn ${r}oks; echo '{}' > ${d}rn/config.json; echo 'touch pwned' > ${r}oks/TaskStart; echo ran");
    expect(output).toContain("ran");
    expect(existsSync(workspace.path(".cairn/config.json"))).toBe(false);
    expect(existsSync(workspace.path(".clinerules/hooks/TaskStart"))).toBe(false);
  });

  it("a new .clineignore cannot un-ignore what .cairnignore hides", async () => {
    const before = await run("cat secret.env");
    await run("echo '!secret.env' > .clineignore");
    const guard = new WorkspaceGuard(workspace.root);
    expect(guard.resolve("secret.env").ignored).toBe(true);
    expect(before).not.toContain("canary");
  });

  it("a background process does not survive the command", async () => {
    await run("(sleep 1; echo late > late.txt) & echo started");
    await delay(2500);
    expect(existsSync(workspace.path("late.txt"))).toBe(false);
  });
});
