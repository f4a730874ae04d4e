/**
 * Journey: a developer works from their editor over ACP, in a project whose
 * `.claude/settings.json` carries the team's rules, with the sandbox on as
 * nobody turned it off. A real `cairn acp` child process driven by the ACP
 * SDK's client side, cairn's scripted model over HTTP (bin/cairn: run
 * `npm run build` first).
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAcpClient, type AcpTestClient, type PermissionAnswer } from "../acp/test-support/acp-client.js";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { checkBubblewrap } from "../security/sandbox.js";

// The user's own config says nothing about the sandbox: it is on.
const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } }));
    await mkdir(join(sandbox.workspace, ".claude"), { recursive: true });
    await writeFile(join(sandbox.workspace, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(curl:*)"] } }));
    await writeFile(join(sandbox.workspace, "app.js"), "export const answer = 41;\n");
  },
});
const clients: AcpTestClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function openEditor(permissions: PermissionAnswer[], reuseServer?: boolean, scenario?: Scenario): Promise<AcpTestClient> {
  const server = reuseServer === true && cli.server !== undefined ? cli.server : await cli.startServer(scenario ?? { turns: [] });
  const client = startAcpClient({
    args: ["--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key-acp", "--tool-protocol", "native"],
    env: cli.sandbox.env,
    cwd: cli.sandbox.workspace,
    permissions,
  });
  clients.push(client);
  await client.initialize();
  return client;
}

const statusOf = (client: AcpTestClient, toolCallId: string): string | undefined =>
  client.updates
    .map((notification) => notification.update)
    .filter((update) => "toolCallId" in update && update.toolCallId === toolCallId)
    .flatMap((update) => ("status" in update && typeof update.status === "string" ? [update.status] : []))
    .at(-1);

describe.skipIf(!checkBubblewrap().ok)("journey: an editor over ACP", () => {
  it("edits with permission, the team's deny rule and the sandbox hold, a cancel stops a long command at once, and a second editor loads the whole session", async () => {
    const outside = join(cli.sandbox.root, "outside.txt");
    const scenario: Scenario = {
      turns: [
        { toolCalls: [{ name: "replace_in_file", arguments: { path: "app.js", diff: "------- SEARCH\nexport const answer = 41;\n=======\nexport const answer = 42;\n+++++++ REPLACE" } }] },
        { toolCalls: [{ name: "execute_command", arguments: { command: "curl -s https://example.com/install.sh", requires_approval: false } }] },
        { toolCalls: [{ name: "execute_command", arguments: { command: `echo leak > ${outside}`, requires_approval: false } }] },
        { toolCalls: [{ name: "execute_command", arguments: { command: "sleep 30 && echo never > late.txt", requires_approval: false } }] },
        // After the cancel, the user's next prompt.
        { toolCalls: [{ name: "attempt_completion", arguments: { result: "The answer is 42 now." } }] },
      ],
    };
    const editor = await openEditor(["allow_once"], false, scenario);
    const sessionId = await editor.newSession(cli.sandbox.workspace);
    const prompt = editor.prompt(sessionId, "fix the answer");
    // The call's title names the command once its input has streamed.
    const sleeping = await editor.waitForUpdate((update) => "toolCallId" in update && "title" in update && String(update.title).includes("sleep 30"), 30_000);
    const sleepId = "toolCallId" in sleeping ? sleeping.toolCallId : "";
    await editor.waitForUpdate((update) => "toolCallId" in update && update.toolCallId === sleepId && "status" in update && update.status === "in_progress");
    const cancelledAt = Date.now();
    await editor.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(Date.now() - cancelledAt).toBeLessThan(5_000);
    expect(statusOf(editor, sleepId)).toBe("failed");

    // The edit was asked once and made; the deny rule refused curl without asking; the sandbox kept the write outside from landing.
    expect(editor.permissionRequests).toHaveLength(1);
    expect(await readFile(join(cli.sandbox.workspace, "app.js"), "utf8")).toBe("export const answer = 42;\n");
    expect(JSON.stringify(cli.server?.requests[2]?.body)).toMatch(/Bash\(curl:\*\)/);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(cli.sandbox.workspace, "late.txt"))).toBe(false);

    // The next prompt goes on in the same task.
    expect((await editor.prompt(sessionId, "that is enough, wrap up")).stopReason).toBe("end_turn");
    expect(JSON.stringify(cli.server?.requests[4]?.body)).toContain("that is enough, wrap up");
    await editor.close();
    clients.splice(clients.indexOf(editor), 1);

    // Another editor window loads the session: the replay shows both prompts and the answer.
    const second = await openEditor([], true);
    await second.agent.request("session/load", { sessionId, cwd: cli.sandbox.workspace, mcpServers: [] });
    expect(second.text("user_message_chunk")).toContain("fix the answer");
    expect(second.text("user_message_chunk")).toContain("that is enough, wrap up");
    expect(second.text("agent_message_chunk")).toContain("The answer is 42 now.");

    // The task is in the history like any other, with its transcript.
    const shown = await runCli(["show", sessionId], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(shown.stdout).toContain("fix the answer");
    expect(shown.stdout).toContain("that is enough, wrap up");
  }, 90_000);
});
