/**
 * The sandbox holds against what a command can do once it runs: renames of
 * protected folders, creating protected paths, cairn's data folder, host
 * sockets, a deny rule's program under another name, any number of ignored
 * files, Cline's rules as a file, and other agents' sign-ins.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PermissionRules, rulesFromBlock } from "../security/permission-rules.js";
import { heldPlaceholders } from "../security/placeholders.js";
import { launchShell } from "../security/process-launch.js";
import { checkBubblewrap } from "../security/sandbox.js";
import { createLaunchPolicy } from "./sandbox-policy.js";
import { createTestWorkspace, type TestWorkspace } from "./test-support/test-workspace.js";

const usable = checkBubblewrap();
if (!usable.ok) console.warn(`SKIPPED airtight sandbox tests: bubblewrap (Debian package "bubblewrap") is not usable here: ${usable.message}`);

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "inside\n", ".cairnignore": "secret.env\n", "secret.env": "canary-secret\n", "important.txt": "keep\n", "AGENTS.md": "# rules\n" });
  execFileSync("git", ["init", "-q"], { cwd: workspace.root });
});
afterEach(() => workspace.cleanup());

function run(command: string, options: { deny?: string[]; dataDir?: string } = {}): { output: string; notes: string[] } {
  const rules = new PermissionRules(rulesFromBlock({ deny: options.deny ?? [] }, "test"), workspace.root);
  const policy = createLaunchPolicy({
    workspace: workspace.root,
    sandbox: "workspace-write",
    network: false,
    allowEnv: [],
    userConfigDir: join(workspace.base, "user-config"),
    dataDir: options.dataDir ?? workspace.dataDir,
    rules,
  });
  const launch = launchShell({ policy, shell: "/bin/bash", command, cwd: workspace.root });
  const result = spawnSync(launch.file, launch.args, { env: launch.env, encoding: "utf8", cwd: workspace.root });
  const notes = launch.release();
  return { output: `${result.stdout}${result.stderr}`, notes };
}

describe.skipIf(!usable.ok)("the sandbox, airtight", () => {
  it("renaming .git and copying it back cannot make its hooks writable; hooks and config stay read-only", () => {
    const { output } = run("mv .git .git-old; cp -r .git .git-copy; echo x > .git/hooks/post-checkout; echo '[core] fsmonitor = x' >> .git/config; echo done");
    expect(output).toMatch(/Device or resource busy/);
    expect(output).toContain("done");
    expect(existsSync(workspace.path(".git-old"))).toBe(false);
    expect(existsSync(workspace.path(".git/hooks/post-checkout"))).toBe(false);
    expect(readFileSync(workspace.path(".git/config"), "utf8")).not.toContain("fsmonitor");
  });

  it("a missing protected folder cannot be created, and its placeholder is gone once the command ends", () => {
    const { output } = run("mkdir -p .cairn/x; mkdir -p .claude/hooks; mkdir -p .clinerules/hooks; ls -d .cairn .claude .clinerules; echo done");
    expect(output).toContain("done");
    for (const name of [".cairn", ".claude", ".clinerules"]) expect(existsSync(workspace.path(name)), name).toBe(false);
    expect(heldPlaceholders()).toEqual([]);
  });

  it("two processes side by side (a command and a hook): each holds the placeholders, so the first to end leaves the other's in place", () => {
    const rules = new PermissionRules(rulesFromBlock({ deny: [] }, "test"), workspace.root);
    const policy = createLaunchPolicy({ workspace: workspace.root, sandbox: "workspace-write", network: false, allowEnv: [], userConfigDir: join(workspace.base, "user-config"), dataDir: workspace.dataDir, rules });
    const first = launchShell({ policy, shell: "/bin/bash", command: "true", cwd: workspace.root });
    const second = launchShell({ policy, shell: "/bin/bash", command: "ls -d .cairn && echo second ran", cwd: workspace.root });
    first.release();
    const result = spawnSync(second.file, second.args, { env: second.env, encoding: "utf8", cwd: workspace.root });
    second.release();
    expect(`${result.stdout}${result.stderr}`).toContain("second ran");
    expect(existsSync(workspace.path(".cairn"))).toBe(false);
    expect(heldPlaceholders()).toEqual([]);
  });

  it("a missing protected file the command creates is moved out of the workspace, with a note; an existing one cannot be written", () => {
    const { output, notes } = run("echo evil > .mcp.json; echo evil >> AGENTS.md; mkdir -p .vscode; echo '{}' > .vscode/tasks.json; echo done");
    expect(output).toContain("done");
    expect(readFileSync(workspace.path("AGENTS.md"), "utf8")).toBe("# rules\n");
    expect(existsSync(workspace.path(".mcp.json"))).toBe(false);
    expect(existsSync(workspace.path(".vscode/tasks.json"))).toBe(false);
    expect(notes.join("\n")).toMatch(/\.mcp\.json \(created by the command; moved to .*refused/);
    const moved = notes.find((note) => note.startsWith(".mcp.json"))?.match(/moved to (.*)\)$/)?.[1] ?? "";
    expect(readFileSync(moved, "utf8")).toBe("evil\n");
  });

  it("a protected link replaced by the command is put back", () => {
    symlinkSync("AGENTS.md", workspace.path("CLAUDE.md"));
    const { notes } = run("rm CLAUDE.md; echo evil > CLAUDE.md");
    expect(readlinkSync(workspace.path("CLAUDE.md"))).toBe("AGENTS.md");
    expect(notes.join("\n")).toMatch(/CLAUDE\.md \(a protected link the command replaced; put back\)/);
  });

  it("cairn's data folder is hidden, except this session's command outputs", () => {
    const dataDir = join(workspace.base, "data");
    mkdirSync(join(dataDir, "tasks", "t1"), { recursive: true });
    writeFileSync(join(dataDir, "tasks", "t1", "log.jsonl"), "canary-log\n");
    mkdirSync(join(dataDir, "outputs", "s1"), { recursive: true });
    writeFileSync(join(dataDir, "outputs", "s1", "out.log"), "visible-output\n");
    const rules = new PermissionRules([], workspace.root);
    const policy = createLaunchPolicy({
      workspace: workspace.root,
      sandbox: "workspace-write",
      network: false,
      allowEnv: [],
      userConfigDir: join(workspace.base, "user-config"),
      dataDir,
      readableInDataDir: join(dataDir, "outputs", "s1"),
      rules,
    });
    const launch = launchShell({ policy, shell: "/bin/bash", command: `cat ${dataDir}/tasks/t1/log.jsonl; cat ${dataDir}/outputs/s1/out.log; grep -r canary ${dataDir}`, cwd: workspace.root });
    const result = spawnSync(launch.file, launch.args, { env: launch.env, encoding: "utf8" });
    launch.release();
    expect(result.stdout).not.toContain("canary-log");
    expect(result.stdout).toContain("visible-output");
  });

  it("no host socket is reachable and /proc shows only the command's own processes", async () => {
    const socket = join(workspace.base, "agent.sock");
    let connections = 0;
    const server: Server = createServer((connection) => {
      connections += 1;
      connection.destroy();
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const { output } = run(`python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socket}')" 2>&1 | tail -1; ls /run | wc -l; ls /proc | grep -c '^[0-9]'`);
      expect(connections).toBe(0);
      const [, runEntries, processes] = output.trim().split("\n");
      expect(Number(runEntries)).toBe(0);
      expect(Number(processes)).toBeLessThan(10);
    } finally {
      server.close();
    }
  });

  it("commands share a loopback network of their own: a server one runs is reached by the next, the machine's loopback is not", async () => {
    let hostRequests = 0;
    const host = createHttpServer((_request, response) => {
      hostRequests += 1;
      response.end("host");
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    const hostPort = (host.address() as AddressInfo).port;
    const serve = 'require("node:http").createServer((q, r) => r.end("sandboxed page")).listen(0, "127.0.0.1", function () { require("node:fs").writeFileSync("port.txt", String(this.address().port)); })';
    const policy = createLaunchPolicy({ workspace: workspace.root, sandbox: "workspace-write", network: false, allowEnv: [], userConfigDir: join(workspace.base, "user-config"), dataDir: workspace.dataDir });
    const launch = launchShell({ policy, shell: "/bin/bash", command: `exec node -e '${serve}'`, cwd: workspace.root });
    const server = spawn(launch.file, launch.args, { env: launch.env, cwd: workspace.root, stdio: "ignore" });
    try {
      const deadline = Date.now() + 20_000;
      while (!existsSync(workspace.path("port.txt")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const fetchLine = (url: string): string => `node -e 'fetch("${url}").then((r) => r.text()).then(console.log, () => console.log("unreachable: ${url}"))'`;
      const { output } = run(`${fetchLine(`http://127.0.0.1:${readFileSync(workspace.path("port.txt"), "utf8")}/`)}; ${fetchLine(`http://127.0.0.1:${hostPort}/`)}`);
      expect(output).toContain("sandboxed page");
      expect(output).toContain(`unreachable: http://127.0.0.1:${hostPort}/`);
      expect(hostRequests).toBe(0);
    } finally {
      server.kill("SIGKILL");
      launch.release();
      host.close();
    }
  });

  it("a program a deny rule names is a stub for everything the command starts, renamed copies included", () => {
    const { output } = run("bash -c 'rm important.txt'; cp /bin/rm ./tidy && ./tidy important.txt; ls important.txt", { deny: ["Bash(rm:*)"] });
    expect(output).toMatch(/cairn: rm is denied by the rule Bash\(rm:\*\) \(test\); it did not run/);
    expect(existsSync(workspace.path("important.txt"))).toBe(true);
  });

  it("any number of ignored files are hidden: a folder of them is rebuilt from its other entries, which stay writable", () => {
    writeFileSync(workspace.path(".cairnignore"), "*.secret\n");
    mkdirSync(workspace.path("many/deep"), { recursive: true });
    for (let index = 0; index < 3000; index += 1) writeFileSync(workspace.path(`many/f${index}.secret`), `canary-${index}\n`);
    writeFileSync(workspace.path("many/kept.txt"), "kept\n");
    writeFileSync(workspace.path("many/deep/x.secret"), "canary-deep\n");
    const { output } = run("cat many/f0.secret many/f2999.secret many/deep/x.secret; ls many; echo more >> many/kept.txt; touch many/new.txt");
    expect(output).not.toContain("canary-");
    expect(output).toMatch(/deep\nkept\.txt/);
    expect(readFileSync(workspace.path("many/kept.txt"), "utf8")).toBe("kept\nmore\n");
    expect(output).toMatch(/new\.txt.*Read-only file system/);
  }, 60_000);

  it("a sandbox whose options are too long for a command line gets them through a file, removed once the command ends", () => {
    writeFileSync(workspace.path(".cairnignore"), "*.env\n");
    const deep = workspace.path(Array.from({ length: 14 }, (_, index) => `${"d".repeat(200)}${index}`).join("/"));
    mkdirSync(deep, { recursive: true });
    for (let index = 0; index < 30; index += 1) {
      mkdirSync(join(deep, `f${index}`));
      writeFileSync(join(deep, `f${index}`, `${"s".repeat(150)}.env`), "canary-long\n");
      writeFileSync(join(deep, `f${index}`, "visible.txt"), "visible\n");
    }
    const { output } = run(`cat ${deep}/*/*.env; echo ran`);
    expect(output).toContain("ran");
    expect(output).not.toContain("canary-long");
    expect(readdirSync(join(workspace.dataDir, "sandbox", "arguments"))).toEqual([]);
  });

  it("past what the sandbox can hide one by one, it refuses to start and says what to change", () => {
    writeFileSync(workspace.path(".cairnignore"), "*.secret\n");
    for (let index = 0; index < 120; index += 1) {
      mkdirSync(workspace.path(`d${index}`));
      writeFileSync(workspace.path(`d${index}/a.secret`), "canary\n");
      writeFileSync(workspace.path(`d${index}/b.txt`), "b\n");
    }
    expect(() => run("true")).toThrow(/hide 120 entries spread over 120 folders.*Ignore whole folders/);
  });

  it("Cline's rules as a file (not a folder): commands still run, and the file stays read-only", () => {
    writeFileSync(workspace.path(".clinerules"), "Be brief.\n");
    const { output } = run("echo ran; echo more >> .clinerules");
    expect(output).toContain("ran");
    expect(readFileSync(workspace.path(".clinerules"), "utf8")).toBe("Be brief.\n");
  });

  it("other agents' sign-ins are hidden where their variables put them ($CLAUDE_CONFIG_DIR, $CODEX_HOME), even inside the workspace", () => {
    const saved = { claude: process.env["CLAUDE_CONFIG_DIR"], codex: process.env["CODEX_HOME"] };
    mkdirSync(workspace.path("agents/claude"), { recursive: true });
    mkdirSync(workspace.path("agents/codex"), { recursive: true });
    writeFileSync(workspace.path("agents/claude/.credentials.json"), "canary-claude-token\n");
    writeFileSync(workspace.path("agents/codex/auth.json"), "canary-codex-token\n");
    process.env["CLAUDE_CONFIG_DIR"] = workspace.path("agents/claude");
    process.env["CODEX_HOME"] = workspace.path("agents/codex");
    try {
      const { output } = run("cat agents/claude/.credentials.json agents/codex/auth.json; echo done");
      expect(output).toContain("done");
      expect(output).not.toContain("canary-claude-token");
      expect(output).not.toContain("canary-codex-token");
    } finally {
      for (const [name, value] of [
        ["CLAUDE_CONFIG_DIR", saved.claude],
        ["CODEX_HOME", saved.codex],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
