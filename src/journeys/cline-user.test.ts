/**
 * Journey: a Cline user brings their setup (docs/journeys.md, "The Claude
 * Code and Cline user"): `.clinerules/` rules (one only for migrations),
 * workflows, `.clineignore` and Cline's hooks, read unchanged, with the
 * sandbox on. Runs bin/cairn (dist/): `npm run build` first.
 */
import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import { conversationRequests, lastToolResult, messagesText, say, systemPrompt, sandboxUsable, serveConversations } from "./test-support/model-turns.js";
import { makeUserMachine, type UserMachine } from "./test-support/user-machine.js";

const sandboxed = sandboxUsable("the Cline user's journey");

const canary = "CANARY-billing-prod-token-7f3e9";
const task = "Add a refund migration to the billing service";
const deployStep = "Deploy the billing service to the environment given";
const migrationRule = "Every migration needs a down step.";

let machine: UserMachine;
let server: ScriptedServer;

const provider = (): string[] => ["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-journey-cline-user-0123456789"];
const cairn = (args: string[]): ReturnType<typeof runCli> => runCli(args, { env: machine.env, cwd: machine.workspace });
const workspaceFile = (...parts: string[]): string => join(machine.workspace, ...parts);

async function bringClineSetup(): Promise<void> {
  const { put } = machine;
  await put(workspaceFile("billing", "service.py"), "def refund(amount: int) -> int:\n    return amount\n");
  await put(workspaceFile("db", "migrations", "001_init.sql"), "create table invoices (id int);\n");
  await put(workspaceFile("secrets", "prod-token.txt"), `${canary}\n`);
  await put(workspaceFile(".clineignore"), "secrets/\n");
  await put(workspaceFile(".clinerules", "01-python.md"), "# Python\nWrite type hints in every function.\n");
  await put(workspaceFile(".clinerules", "02-commits.md"), "# Commits\nCommit messages are in the imperative mood.\n");
  await put(workspaceFile(".clinerules", "03-migrations.md"), `---\npaths:\n  - "db/migrations/**"\n---\n# Migrations\n${migrationRule}\n`);
  await put(workspaceFile(".clinerules", "workflows", "deploy.md"), `# Deploy\n\n${deployStep}:\n\n1. Run \`make test\`.\n2. Tag the release.\n`);
  // Cline's hooks: executables named after the event, reading Cline's JSON and answering with cancel / contextModification / errorMessage.
  await put(
    workspaceFile(".clinerules", "hooks", "PreToolUse"),
    [
      "#!/usr/bin/env bash",
      "input=$(cat)",
      "tool=$(echo \"$input\" | jq -r '.preToolUse.toolName')",
      "command=$(echo \"$input\" | jq -r '.preToolUse.parameters.command // empty')",
      'echo "checking $tool"',
      'if [[ "$tool" == "execute_command" && "$command" == *"git push"* ]]; then',
      '  echo \'{"cancel": true, "errorMessage": "Pushing is done by CI, not by the agent"}\'',
      "  exit 0",
      "fi",
      "echo '{\"cancel\": false}'",
      "",
    ].join("\n"),
    { executable: true },
  );
  await put(
    workspaceFile(".clinerules", "hooks", "PostToolUse"),
    [
      "#!/usr/bin/env bash",
      "input=$(cat)",
      "echo \"$input\" | jq -c '{hookName, tool: .postToolUse.toolName, path: .postToolUse.parameters.path, success: .postToolUse.success}' >> .cline-tools.log",
      "echo '{\"cancel\": false}'",
      "",
    ].join("\n"),
    { executable: true },
  );
  await put(
    workspaceFile(".clinerules", "hooks", "TaskStart"),
    [
      "#!/usr/bin/env bash",
      "input=$(cat)",
      "first=$(echo \"$input\" | jq -r '.taskStart.taskMetadata.initialTask')",
      "jq -n --arg ctx \"PROJECT_TYPE: Python billing service (task: $first)\" '{cancel: false, contextModification: $ctx}'",
      "",
    ].join("\n"),
    { executable: true },
  );
  await put(workspaceFile(".gitignore"), ".cline-tools.log\n");
  machine.commitAll("billing");
}

describe.skipIf(!sandboxed)("A Cline user brings their setup", () => {
  beforeAll(async () => {
    machine = await makeUserMachine({ project: "billing" });
    await bringClineSetup();
    server = await serveConversations([
      {
        match: task,
        turns: [
          say.read("secrets/prod-token.txt"),
          say.list(".", true),
          say.search(".", "CANARY"),
          say.command("cat secrets/prod-token.txt; ls secrets"),
          say.write("db/migrations/002_refunds.sql", "alter table invoices add column refunded int;"),
          say.command("git push origin main"),
          say.complete("Added the refund migration."),
        ],
      },
      { match: `${deployStep}:`, turns: [say.complete("Deployed."), say.complete("Deployed.")] },
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await machine?.cleanup();
  });

  it("a task: every rule reaches the prompt (the migrations one once a migration is touched), Cline's hooks run, .clineignore hides secrets/ from every tool and the sandbox", { timeout: 60_000 }, async () => {
    const result = await cairn(["run", ...provider(), "--trust", "--yes", task]);
    expect(result.status, result.stderr).toBe(0);
    const requests = conversationRequests(server, task);
    expect(requests).toHaveLength(7);

    // Rules: the always-on ones from the first request; the path-scoped one only after the migration was written.
    const firstPrompt = systemPrompt(requests[0]);
    expect(firstPrompt).toContain("Write type hints in every function.");
    expect(firstPrompt).toContain("Commit messages are in the imperative mood.");
    expect(firstPrompt).not.toContain(migrationRule);
    expect(systemPrompt(requests[4])).not.toContain(migrationRule);
    expect(systemPrompt(requests[5])).toContain(migrationRule);

    // Cline's TaskStart hook saw Cline's fields and its context reached the model.
    expect(messagesText(requests[0])).toContain(`PROJECT_TYPE: Python billing service (task: ${task})`);

    // .clineignore: invisible to read_file, list_files, search_files, and to commands in the sandbox.
    for (const request of requests) expect(JSON.stringify(request)).not.toContain(canary);
    expect(lastToolResult(requests[1])).toMatch(/blocked by the workspace's \.cairnignore \(or \.clineignore\)/);
    // list_files names the folder as blocked (Cline marks ignored entries too), never what is in it.
    expect(lastToolResult(requests[2])).toContain("db/migrations/001_init.sql");
    expect(lastToolResult(requests[2])).not.toContain("prod-token.txt");
    expect(lastToolResult(requests[3])).not.toContain("prod-token.txt");
    // In the sandbox the folder is there but empty: cat finds no such file, ls lists nothing.
    expect(lastToolResult(requests[4])).toMatch(/Output:\\ncat: secrets\/prod-token\.txt: No such file or directory\\n"/);

    // Cline's PreToolUse hook cancelled the push, with its errorMessage, on the card and to the model.
    expect(result.stderr).toMatch(/git push origin main: blocked by a PreToolUse hook: Pushing is done by CI, not by the agent/);
    expect(messagesText(requests[6])).toContain("Pushing is done by CI, not by the agent");

    // Cline's PostToolUse hook got Cline's fields for the write.
    const log = (await readFile(workspaceFile(".cline-tools.log"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log).toContainEqual({ hookName: "PostToolUse", tool: "write_to_file", path: "db/migrations/002_refunds.sql", success: true });
    expect(await readFile(workspaceFile("db", "migrations", "002_refunds.sql"), "utf8")).toContain("refunded");
    expect(existsSync(join(await realpath(machine.workspace), "secrets", "prod-token.txt"))).toBe(true);
  });

  it("a workflow runs as Cline types it (/deploy.md staging) and as /deploy", { timeout: 60_000 }, async () => {
    for (const typed of ["/deploy.md staging", "/deploy staging"]) {
      const result = await cairn(["run", ...provider(), "--yes", typed]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain("Deployed.");
    }
    const requests = conversationRequests(server, `${deployStep}:`);
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(messagesText(request)).toMatch(/Run `make test`[\s\S]*staging/);
  });
});
