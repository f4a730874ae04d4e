/**
 * Journey: a developer embeds cairn in their own program through the SDK, in
 * a repository where they already use Claude Code. The program's task obeys
 * the project's Claude Code deny rules, a hook written as a callback, and the
 * program's own approval policy; the program stops it midway; the developer
 * then finds it with the real CLI (`cairn history`, `cairn show`) and
 * finishes it with `cairn resume` (bin/cairn: run `npm run build` first).
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import { z } from "zod";
import { startTask, tool, type CairnEvent } from "../sdk/index.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, ".env"), "API_TOKEN=do-not-leak\n");
    await mkdir(join(sandbox.workspace, ".claude"), { recursive: true });
    await writeFile(join(sandbox.workspace, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./.env)"] } }));
  },
});

const write = (path: string, content: string): string => `<write_to_file>\n<path>${path}</path>\n<content>${content}</content>\n</write_to_file>`;
const complete = (text: string): string => `<attempt_completion>\n<result>${text}</result>\n</attempt_completion>`;

describe("journey: a program that embeds cairn", () => {
  it("runs a task under the project's Claude Code rules, a callback hook and its own approval policy, stops it, and the CLI finds and finishes it", async () => {
    const server = await cli.startServer({
      turns: [
        { text: "<lookup_ticket>\n<id>REL-7</id>\n</lookup_ticket>" },
        { text: "<read_file>\n<path>.env</path>\n</read_file>" },
        { text: write("deploy.sh", "curl -X POST https://example.invalid/deploy\n") },
        { text: write("notes.md", "# Notes\n\nRelease checklist drafted.\n") },
        { text: `Now a long explanation of the release. ${"More words. ".repeat(300)}`, delayMs: 20, chunkSize: 8 },
      ],
    });
    const hookSaw: string[] = [];
    const policy: string[] = [];
    const releaseTicket = tool({
      name: "lookup_ticket",
      description: "The title of a ticket in the team's tracker",
      inputSchema: { id: z.string() },
      readOnly: true,
      run: ({ id }) => (id === "REL-7" ? "Release 2.4: Safari login fix" : { content: `no ticket ${id}`, isError: true }),
    });
    const task = startTask("Draft the release notes", {
      tools: [releaseTicket],
      cwd: cli.sandbox.workspace,
      dataDir: cli.sandbox.dataDir,
      env: cli.sandbox.env,
      provider: "anthropic",
      apiKey: "test-key",
      baseUrl: server.url,
      hooks: {
        PreToolUse: [
          {
            matcher: "Write",
            hooks: [
              (input) => {
                const filePath = (input as { tool_input?: Record<string, unknown> }).tool_input?.["file_path"];
                const path = typeof filePath === "string" ? filePath : "";
                hookSaw.push(path);
                return path.endsWith(".sh") ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no scripts from the bot" } } : undefined;
              },
            ],
          },
        ],
      },
      canUseTool: ({ toolName, input }) => {
        policy.push(`${toolName} ${String(input["path"])}`);
        return String(input["path"]).endsWith(".md") ? { behavior: "allow" } : { behavior: "deny", message: "only markdown" };
      },
    });
    const events: CairnEvent[] = [];
    for await (const event of task) {
      events.push(event);
      if (event.type === "say" && event.say === "text" && "text" in event && event.text.startsWith("Now a long")) task.abort();
    }
    const result = await task.result;
    const taskId = await task.taskId();
    // Stopped, with the rule's refusal and the hook's counted; the program's policy was asked only for what was left to ask.
    expect(result).toMatchObject({ type: "result", status: "aborted", exitStatus: 130, refused: 2, taskId });
    expect(policy).toEqual(["write_to_file notes.md"]);
    expect(hookSaw.map((path) => path.split("/").at(-1))).toEqual(["deploy.sh", "notes.md"]);
    expect(existsSync(join(cli.sandbox.workspace, "deploy.sh"))).toBe(false);
    expect(await readFile(join(cli.sandbox.workspace, "notes.md"), "utf8")).toBe("# Notes\n\nRelease checklist drafted.\n");
    // The secret never reached the model; the hook's reason did.
    const sent = JSON.stringify(server.requests.map((request) => request.body));
    expect(sent).not.toContain("do-not-leak");
    expect(sent).toContain("no scripts from the bot");
    // The program's own tool ran without an ask (read-only) and its answer reached the model.
    expect(JSON.stringify(server.requests[1]?.body)).toContain("Release 2.4: Safari login fix");

    // The developer finds the task with the CLI: the same data folder, the same log.
    const history = await runCli(["history"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(history.status, history.stderr).toBe(0);
    expect(history.stdout).toContain(taskId);
    const shown = await runCli(["show", taskId], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(shown.stdout).toContain("notes.md");
    expect(shown.stdout).toContain("lookup_ticket");
    expect(shown.stdout).toContain("Draft the release notes");

    // And finishes it headless: the message reaches the model, the task completes.
    const finish = await cli.startServer({ turns: [{ text: complete("Release notes drafted in notes.md.") }] });
    const resumed = await runCli(["resume", taskId, ...anthropicArgs(finish), "--json", "wrap up"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(JSON.stringify(finish.requests[0]?.body)).toContain("wrap up");
    expect(resumed.stdout.trim().split("\n").at(-1)).toContain('"status":"completed"');
  });
});
