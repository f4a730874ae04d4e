/**
 * Journey: a Claude Code user brings their setup (docs/journeys.md, "The
 * Claude Code and Cline user"). Their files stay where Claude Code reads
 * them, unchanged; cairn runs with the sandbox on, as after an install.
 * Runs bin/cairn (dist/): `npm run build` first.
 */
import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { everythingEntry, filesystemEntry } from "../mcp/test-support/servers.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import { startTmux, tmuxAvailable, type TmuxSession } from "../ui/tui/test-support/tmux.js";
import { cairnBin } from "../cli/test-support/cli-harness.js";
import { conversationRequests, lastToolResult, messagesText, say, systemPrompt, sandboxUsable, serveConversations } from "./test-support/model-turns.js";
import { makeUserMachine, type UserMachine } from "./test-support/user-machine.js";
import { auditorInstructions, greetBody, makeMarketplaceRepository, marketplaceName, mcpAnswer, pricingSkillBody } from "../plugins/test-support/plugin-marketplace.js";

const sandboxed = sandboxUsable("the Claude Code user's journey");
if (!tmuxAvailable()) console.warn("SKIPPED the Claude Code user's journey: tmux is not installed");

const apiKey = "sk-journey-claude-user-0123456789";
const tuiTask = "Tidy the shop before the release";
const reviewBody = "Review the code in $ARGUMENTS and list what needs fixing before the release.";
const standupBody = "Write my standup notes from the last commits.";
const testerPrompt = "Run the shop's checks and report what fails";

let machine: UserMachine;
let server: ScriptedServer;
let outside: string;

const provider = (): string[] => ["--provider", "anthropic", "--base-url", server.url, "--api-key", apiKey];
const cairn = (args: string[]): ReturnType<typeof runCli> => runCli(args, { env: machine.env, cwd: machine.workspace });
const workspaceFile = (...parts: string[]): string => join(machine.workspace, ...parts);

async function bringClaudeCodeSetup(): Promise<void> {
  const { put, claudeDir, home, workspace } = machine;
  // ~/.claude: the user's own settings, hooks, status line, memory, commands, agents and skills.
  await put(join(claudeDir, "settings.json"), {
    env: { TEAM_NAME: "platform" },
    permissions: { defaultMode: "acceptEdits", allow: ["mcp__files__list_directory"] },
    hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "~/.claude/hooks/team-context.sh" }] }] },
    statusLine: { type: "command", command: "~/.claude/statusline.sh" },
  });
  await put(join(claudeDir, "hooks", "team-context.sh"), '#!/bin/sh\ncat > /dev/null\necho "Team convention: every change gets a changelog line (from the team hook)."\n', { executable: true });
  // What Claude Code's /statusline writes: a script reading Claude Code's JSON on stdin.
  await put(
    join(claudeDir, "statusline.sh"),
    '#!/bin/sh\ninput=$(cat)\nmodel=$(printf "%s" "$input" | jq -r ".model.display_name")\ndir=$(printf "%s" "$input" | jq -r ".workspace.current_dir")\necho "[$model] ${dir##*/} on team $TEAM_NAME"\necho "second line is not shown"\n',
    { executable: true },
  );
  await put(join(claudeDir, "CLAUDE.md"), "I prefer short commit messages (from my user memory).\n");
  await put(join(claudeDir, "commands", "standup.md"), `---\ndescription: Standup notes\n---\n${standupBody}\n`);
  await put(join(claudeDir, "agents", "summariser.md"), "---\nname: summariser\ndescription: Summarises long logs (my own agent)\ntools: Read\n---\nSummarise.\n");
  await put(join(claudeDir, "skills", "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Writes release notes the way I like them\n---\nSteps.\n");
  // ~/.claude.json: Claude Code's state file, with a user server and one local to this project.
  await put(join(home, ".claude.json"), {
    numStartups: 41,
    mcpServers: { everywhere: { type: "stdio", command: process.execPath, args: [everythingEntry, "stdio"], env: {} } },
    projects: { [workspace]: { allowedTools: [], mcpServers: { files: { type: "stdio", command: process.execPath, args: [filesystemEntry, workspace], env: {} } } } },
  });

  // The project, as the team checked it in.
  await put(workspaceFile("src", "app.py"), "print('shop')\n");
  await put(workspaceFile("src", "legacy.py"), "print('old')\n");
  await put(workspaceFile("CLAUDE.md"), "# Shop\nUse British spelling in everything users read (from the project memory).\n");
  await put(workspaceFile(".claude", "settings.json"), {
    permissions: { allow: ["Bash(npm test:*)", "mcp__everything__echo"], deny: ["Bash(rm:*)"], ask: ["Bash(git push:*)"] },
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-curl.sh' }] }],
      PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "jq -c '{tool_name, tool_input}' >> \"$CLAUDE_PROJECT_DIR\"/edit-log.jsonl" }] }],
    },
  });
  await put(
    workspaceFile(".claude", "hooks", "no-curl.sh"),
    [
      "#!/bin/sh",
      "input=$(cat)",
      'tool=$(printf "%s" "$input" | jq -r ".tool_name")',
      'command=$(printf "%s" "$input" | jq -r ".tool_input.command // empty")',
      'if [ "$tool" = "Bash" ] && printf "%s" "$command" | grep -q curl; then',
      '  echo "curl is not allowed here: use scripts/fetch.sh" >&2',
      "  exit 2",
      "fi",
      "",
    ].join("\n"),
    { executable: true },
  );
  await put(workspaceFile(".claude", "commands", "review.md"), `---\ndescription: Review a folder before the release\nargument-hint: <folder>\nallowed-tools: Bash(ls:*), Read\n---\n${reviewBody}\n`);
  await put(workspaceFile(".claude", "agents", "tester.md"), "---\nname: tester\ndescription: Runs the shop's checks and reports failures\ntools: Bash, Read\n---\nRun the checks; never change files.\n");
  await put(workspaceFile(".claude", "skills", "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Adds a changelog line in the team's format\n---\nSteps.\n");
  // The project's MCP server, started through a script of the repository's (it leaves a mark when it starts).
  await put(
    workspaceFile("tools", "mcp-everything.mjs"),
    `import { writeFileSync } from "node:fs";\nimport { pathToFileURL } from "node:url";\nwriteFileSync(new URL("../mcp-started.txt", import.meta.url), "started");\nprocess.argv = [process.argv[0], ${JSON.stringify(everythingEntry)}, "stdio"];\nawait import(pathToFileURL(${JSON.stringify(everythingEntry)}).href);\n`,
  );
  await put(workspaceFile(".mcp.json"), { mcpServers: { everything: { command: process.execPath, args: ["tools/mcp-everything.mjs"] } } });
  await put(workspaceFile(".gitignore"), "CLAUDE.local.md\n.claude/settings.local.json\nmcp-started.txt\nedit-log.jsonl\n");
  machine.commitAll("the shop");
  // The user's own, never committed.
  await put(workspaceFile("CLAUDE.local.md"), "My local shop runs on port 8000 (from my local memory).\n");
  await put(workspaceFile(".claude", "settings.local.json"), { permissions: { allow: ["Bash(ls:*)"] } });
}

describe.skipIf(!sandboxed || !tmuxAvailable())("A Claude Code user brings their setup", () => {
  beforeAll(async () => {
    machine = await makeUserMachine({ project: "shop" });
    // A folder of the user's own, outside the project (the sandbox leaves the home read-only, or does not show it).
    outside = await machine.put(join(machine.home, "notes", "keep.txt"), "mine\n").then(() => join(machine.home, "notes", "standup.txt"));
    await bringClaudeCodeSetup();
    server = await serveConversations([
      {
        match: tuiTask,
        turns: [
          say.command("rm src/legacy.py"),
          say.command("curl -fsSL https://get.example.com/install.sh -o install.sh"),
          say.write("CHANGELOG.md", "- tidied the shop"),
          say.command('echo "$TEAM_NAME" > team.txt'),
          say.mcp("everything", "echo", { message: "hello from the project's server" }),
          say.mcp("files", "list_directory", { path: machine.workspace }),
          say.complete("The shop is tidy."),
        ],
      },
      {
        match: "Review the code in src",
        turns: [say.command("ls src"), { text: `<use_subagents>\n<subagents>${JSON.stringify([{ prompt: testerPrompt, agent: "tester" }])}</subagents>\n</use_subagents>` }, say.complete("Reviewed src.")],
      },
      { match: testerPrompt, turns: [say.read("src/app.py"), say.complete("All checks pass.")] },
      { match: standupBody, turns: [say.command(`git log --oneline > ${outside}`), say.complete("Standup notes: the shop.")] },
      {
        match: "Greet Ann warmly",
        turns: [
          say.write("welcome.txt", "Welcome, Ann"),
          say.mcp("plugin:shop:prices", "price", { item: "tea" }),
          { text: "<use_skill>\n<skill_name>shop:pricing</skill_name>\n</use_skill>" },
          say.subagents([{ prompt: "AUDIT: check the prices", agent: "shop:auditor" }]),
          say.complete("Ann greeted."),
        ],
      },
      { match: "AUDIT:", turns: [say.complete("Prices audited.")] },
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await machine?.cleanup();
  });

  it("cairn in the terminal asks to trust the folder first, naming the project's hooks and MCP servers; none has run before the answer", { timeout: 60_000 }, async () => {
    const terminal = await openCairn(provider());
    try {
      const question = (await terminal.waitFor(/\[y\/N\]/, { timeoutMs: 30_000 })).replace(/\s*\n\s*/g, " ");
      expect(question).toContain("run the hooks in .claude/settings.json");
      expect(question).toContain("start the MCP servers in .mcp.json");
      expect(existsSync(workspaceFile("mcp-started.txt"))).toBe(false);
      expect(server.requests).toHaveLength(0);
      await terminal.sendText("y");
      await terminal.sendKeys("Enter");
      // The user's status line, drawn from Claude Code's JSON on stdin: its first line only.
      const screen = await terminal.waitFor(/\[.+\] shop on team platform/, { timeoutMs: 30_000 });
      expect(screen).not.toContain("second line is not shown");

      await terminal.sendText(tuiTask);
      await terminal.sendKeys("Enter");
      await terminal.waitFor(/The shop is tidy\./, { timeoutMs: 45_000 });
      const transcript = (await terminal.captureAll()).replace(/\s*\n\s*/g, " ");
      // The deny rule stopped rm, naming the rule and its file; the file is still there.
      expect(transcript).toMatch(/Run \$ rm src\/legacy\.py ✗ refused: the rule Bash\(rm:\*\) \(project /);
      expect(existsSync(workspaceFile("src", "legacy.py"))).toBe(true);
      // The project's hook blocked curl: the card says so, with the hook's reason.
      expect(transcript).toMatch(/curl -fsSL https:\/\/get\.example\.com\/install\.sh -o install\.sh.*blocked.*curl is not allowed here: use scripts\/fetch\.sh/);
      expect(existsSync(workspaceFile("install.sh"))).toBe(false);
      // The status line is drawn again after the task (its command runs anew at each update).
      await terminal.waitFor(/\[.+\] shop on team platform/, { timeoutMs: 15_000 });
    } finally {
      await terminal.kill();
    }

    const requests = conversationRequests(server, tuiTask);
    const system = systemPrompt(requests[0]);
    // Every memory file Claude Code reads reached the system prompt.
    expect(system).toContain("Use British spelling in everything users read (from the project memory).");
    expect(system).toContain("My local shop runs on port 8000 (from my local memory).");
    expect(system).toContain("I prefer short commit messages (from my user memory).");
    // Agent types (project's and user's) are offered to use_subagents; skills are listed.
    expect(system).toMatch(/- tester: Runs the shop's checks and reports failures/);
    expect(system).toMatch(/- summariser: Summarises long logs \(my own agent\)/);
    expect(system).toMatch(/- changelog: Adds a changelog line in the team's format/);
    expect(system).toMatch(/- release-notes: Writes release notes the way I like them/);
    // The user's UserPromptSubmit hook (a script in ~/.claude/hooks) added its context.
    expect(messagesText(requests[0])).toContain("every change gets a changelog line (from the team hook)");
    // The PostToolUse hook got Claude Code's tool name and input shape.
    const logged = (await readFile(workspaceFile("edit-log.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(logged).toEqual([{ tool_name: "Write", tool_input: { file_path: join(await realpath(machine.workspace), "CHANGELOG.md"), content: "- tidied the shop" } }]);
    // The user's env reached the command.
    expect(await readFile(workspaceFile("team.txt"), "utf8")).toBe("platform\n");
    // The MCP servers of .mcp.json and of ~/.claude.json (this project's) were callable.
    const last = messagesText(requests.at(-1));
    expect(last).toContain("hello from the project's server");
    expect(last).toMatch(/\[FILE\] app\.py|\[DIR\] src/);
  });

  it('headless: cairn run "/review src" runs the project\'s Claude Code command, and its tester subagent', { timeout: 60_000 }, async () => {
    const result = await cairn(["run", ...provider(), "--on-ask", "deny", "/review src"]);
    expect(result.status, result.stderr).toBe(0);
    const requests = conversationRequests(server, "Review the code in src");
    expect(messagesText(requests[0])).toContain("Review the code in src and list what needs fixing before the release.");
    expect(messagesText(requests[1])).toMatch(/app\.py/);
    const tester = conversationRequests(server, testerPrompt);
    expect(systemPrompt(tester[0])).toContain("Run the checks; never change files.");
    expect(result.stdout).toContain("Reviewed src.");
  });

  it("headless: the user's own ~/.claude/commands/standup.md runs, and a write outside the workspace fails in the sandbox", { timeout: 60_000 }, async () => {
    const result = await cairn(["run", ...provider(), "--yes", "/standup"]);
    expect(result.status, result.stderr).toBe(0);
    const requests = conversationRequests(server, standupBody);
    expect(requests.length).toBe(2);
    expect(existsSync(outside)).toBe(false);
    expect(messagesText(requests[1])).toMatch(/No such file or directory|Directory nonexistent|Read-only file system/);
  });

  it("the team's plugin: the project names its marketplace; cairn plugin install shows what it brings and asks; its command, hook, MCP server, skill and agent work in the sandbox", { timeout: 90_000 }, async () => {
    const repository = await makeMarketplaceRepository(join(machine.home, "team-marketplace"));
    const projectSettings = workspaceFile(".claude", "settings.json");
    const settings = JSON.parse(await readFile(projectSettings, "utf8")) as Record<string, unknown>;
    await machine.put(projectSettings, {
      ...settings,
      extraKnownMarketplaces: { [marketplaceName]: { source: { source: "git", url: `file://${repository.folder}` } } },
      enabledPlugins: { [`shop@${marketplaceName}`]: true },
    });
    expect((await cairn(["plugin", "list"])).stdout).toContain(`shop@${marketplaceName}  not installed (enabled in ${projectSettings}): cairn plugin install shop@${marketplaceName}`);

    const install = await runCli(["plugin", "install", `shop@${marketplaceName}`], { env: machine.env, cwd: machine.workspace, stdin: "y\n" });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toContain(`Adding the marketplace ${marketplaceName} from file://${repository.folder} (named in ${projectSettings})`);
    expect(install.stderr).toContain("PostToolUse [Write|Edit]: sh ${CLAUDE_PLUGIN_ROOT}/scripts/log-write.sh");
    expect(install.stderr).toContain("plugin:shop:prices:");
    expect(install.stdout).toContain(`Installed shop@${marketplaceName} (pinned to commit ${repository.head().slice(0, 12)}`);

    const result = await cairn(["run", ...provider(), "--yes", "/shop:greet Ann"]);
    expect(result.status, result.stderr).toBe(0);
    const requests = conversationRequests(server, "Greet Ann warmly");
    expect(messagesText(requests[0])).toContain(greetBody.replace("$ARGUMENTS", "Ann"));
    expect(systemPrompt(requests[0])).toContain("- shop:pricing: How the shop prices things");
    expect(systemPrompt(requests[0])).toContain("- shop:auditor: Audits the shop's prices");
    const pinned = join(join(machine.home, ".cairn"), "plugins", "installed", `shop@${marketplaceName}`);
    // The plugin's hook ran its own script from the pinned copy, in the sandbox (which hides the rest of the data folder).
    expect(await readFile(workspaceFile("plugin-hook.log"), "utf8")).toMatch(new RegExp(`^plugin hook v1 ran from ${escape(pinned)}/[0-9a-f]{12}-[0-9a-f]{12}\\n$`));
    expect(lastToolResult(requests[2])).toContain(`tea ${mcpAnswer} at ${pinned}/`);
    expect(lastToolResult(requests[3])).toContain(pricingSkillBody);
    expect(systemPrompt(conversationRequests(server, "AUDIT:")[0])).toContain(auditorInstructions);
    expect(result.stdout).toContain("Ann greeted.");
  });

  it("cairn config shows each value with its file; cairn mcp list each server with its file", { timeout: 60_000 }, async () => {
    const config = await runCli(["config"], { env: { ...machine.env, ANTHROPIC_API_KEY: apiKey }, cwd: machine.workspace });
    expect(config.status, config.stderr).toBe(0);
    const out = config.stdout;
    const user = join(machine.claudeDir, "settings.json");
    const project = workspaceFile(".claude", "settings.json");
    const local = workspaceFile(".claude", "settings.local.json");
    expect(out).toMatch(new RegExp(`env\\.TEAM_NAME\\s+set \\(value not shown\\)\\s+user ${escape(user)}`));
    expect(out).toMatch(new RegExp(`autoApprove\\.editInside\\s+true\\s+user ${escape(user)} \\(permissions\\.defaultMode acceptEdits\\)`));
    expect(out).toMatch(new RegExp(`statusLine\\s+~/\\.claude/statusline\\.sh\\s+user ${escape(user)}`));
    expect(out).toMatch(new RegExp(`sandbox\\s+workspace-write\\s+default`));
    expect(out).toMatch(new RegExp(`deny\\s+Bash\\(rm:\\*\\)\\s+project ${escape(project)}`));
    expect(out).toMatch(new RegExp(`allow\\s+Bash\\(ls:\\*\\)\\s+project ${escape(local)}`));
    expect(out).toMatch(new RegExp(`allow\\s+mcp__files__list_directory\\s+user ${escape(user)}`));
    expect(out).toMatch(new RegExp(`PreToolUse \\[Bash\\]\\s+"\\$CLAUDE_PROJECT_DIR"/\\.claude/hooks/no-curl\\.sh\\s+${escape(project)}`));
    expect(out).toMatch(new RegExp(`PostToolUse \\[Edit\\|Write\\]\\s+.+\\s{2,}${escape(project)}`));
    expect(out).toMatch(new RegExp(`UserPromptSubmit\\s+~/\\.claude/hooks/team-context\\.sh\\s+${escape(user)}`));
    expect(out).toContain("folder trust:   trusted");

    const servers = await cairn(["mcp", "list", "--timeout", "30"]);
    expect(servers.status, servers.stderr).toBe(0);
    const listed = (name: string, from: string): RegExp => new RegExp(`^${name}  \\(stdio: [^\\n]*\\)\\n  from: ${escape(from)}\\n  status: connected`, "m");
    expect(servers.stdout).toMatch(listed("everything", workspaceFile(".mcp.json")));
    expect(servers.stdout).toMatch(listed("files", `${join(machine.home, ".claude.json")} (projects["${machine.workspace}"])`));
    expect(servers.stdout).toMatch(listed("everywhere", join(machine.home, ".claude.json")));
    expect(servers.stdout).toMatch(
      new RegExp(`^plugin:shop:prices  \\(stdio: [^\\n]*\\)\\n  from: ${escape(join(machine.home, ".cairn"))}/plugins/installed/shop@team-tools/[^\\n]*/\\.mcp\\.json\\n  status: connected`, "m"),
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function openCairn(args: string[]): Promise<TmuxSession> {
  return startTmux({ command: [process.execPath, cairnBin, ...args], cwd: machine.workspace, env: machine.terminal.env, unset: machine.terminal.unset, columns: 100, rows: 40 });
}
