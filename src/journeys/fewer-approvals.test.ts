/**
 * Journey: a user tired of approving the same commands (issue 30). They work a
 * few tasks answering asks by hand, let cairn propose rules from that history,
 * review a team policy against the same history before adopting it, then run
 * the next task in auto mode, where a small model judges what is left to ask
 * (bin/cairn: run `npm run build` first).
 */
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { runCli, startCli } from "../cli/test-support/cli-harness.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } }));
    await writeFile(join(sandbox.workspace, "package.json"), JSON.stringify({ scripts: { test: "echo tests pass" } }));
  },
});

const command = (line: string): ScenarioTurn => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });
const write = (path: string, content: string): ScenarioTurn => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done: ScenarioTurn = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

describe("journey: fewer approvals without less safety", () => {
  it("asks answered by hand become a proposed rule, a team policy is replayed over the history, and auto mode judges what is left", async () => {
    const { env, workspace } = cli.sandbox;
    // The user runs commands outside the sandbox, so every command is asked.
    expect((await runCli(["sandbox", "disable"], { env, cwd: workspace })).status).toBe(0);

    // Two tasks, answered by hand on stdin: yes to the tests, no to pushing.
    for (const turns of [
      [command("npm test"), command("git push"), done],
      [command("npm test"), done],
    ]) {
      const server = await cli.startServer({ turns });
      const run = startCli(["run", "--json", ...anthropicArgs(server), "fix the tests"], { env, cwd: workspace, keepStdinOpen: true });
      const answered = new Set<string>();
      run.child.stdout?.on("data", () => {
        for (const event of run.events()) {
          const id = String(event["id"]);
          if (event["type"] !== "ask" || answered.has(id)) continue;
          answered.add(id);
          run.child.stdin?.write(`${JSON.stringify({ id, response: String(event["text"]).includes("git push") ? "no" : "yes" })}\n`);
        }
      });
      expect(await run.exit, run.stderr).toBe(0);
    }

    // cairn proposes the narrowest rule the history supports, and writes it only with a yes.
    const proposed = await runCli(["permissions", "suggest"], { env, cwd: workspace });
    expect(proposed.stdout).toContain("allow Bash(npm test): would have saved 2 asks in 2 tasks");
    expect(proposed.stdout).toContain("Nothing was written");
    const saved = await runCli(["permissions", "suggest", "--yes"], { env, cwd: workspace });
    expect(saved.stdout).toContain("Saved in");
    const config = JSON.parse(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")) as { permissions: { allow: string[] } };
    expect(config.permissions.allow).toEqual(["Bash(npm test)"]);

    // The team's policy, replayed over the same history before adopting it.
    await writeFile(join(cli.sandbox.root, "team.json"), JSON.stringify({ permissions: { allow: ["Bash(npm:*)"], deny: ["Bash(git push:*)"] } }));
    const replay = await runCli(["permissions", "replay", "--rules", join(cli.sandbox.root, "team.json")], { env, cwd: workspace });
    expect(replay.stdout).toContain("* deny  git push  (execute_command; asked, you refused)");
    expect(replay.stdout).toContain("3 actions of 2 tasks: 2 allowed, 0 asked, 1 denied under these rules");

    // The next task in auto mode: the learned rule runs the tests, the judge allows the edit and refuses the push.
    const server = await cli.startServer({
      turns: [command("npm test"), write("NOTES.txt", "tests pass"), command("git push --force"), done],
      routes: [
        {
          bodyIncludes: "cairn's auto-mode judge",
          turns: [
            { text: '{"decision": "allow", "reason": "notes the task asked for"}', usage: { inputTokens: 2000, outputTokens: 20 } },
            { text: '{"decision": "deny", "reason": "force-pushing is not part of fixing tests"}', usage: { inputTokens: 2100, outputTokens: 20 } },
          ],
        },
      ],
    });
    const auto = await runCli(["run", ...anthropicArgs(server), "--permission-mode", "auto", "fix the tests"], { env, cwd: workspace });
    expect(auto.status, auto.stderr).toBe(0);
    expect(await readFile(join(workspace, "NOTES.txt"), "utf8")).toBe("tests pass\n");
    expect(auto.stderr).toContain("(auto mode allowed it: notes the task asked for)");
    expect(auto.stderr).toContain("auto mode refused it: force-pushing is not part of fixing tests");
    expect(auto.stderr).toMatch(/auto mode 2 judged \(1 allowed, 1 denied\) 4,140 tokens \$0\.\d{4}/);
    // The tests ran on the learned rule: the judge was asked about the edit and the push only.
    expect(server.requests.filter((request) => request.route === 0)).toHaveLength(2);
    await expect(access(join(workspace, ".git"))).rejects.toThrow();
  }, 120_000);
});
