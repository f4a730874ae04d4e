import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";
import { startCli } from "./test-support/cli-harness.js";

/**
 * `cairn permissions suggest` and `replay` (issue 30) on task logs made by real runs: each
 * command is asked (the sandbox is off in these tests' config) and answered on stdin as a user
 * would: yes, except `git push`.
 */
const fixture = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, "package.json"), JSON.stringify({ scripts: { test: "echo tests pass", lint: "echo lint ok" } }));
  },
});

const command = (line: string): ScenarioTurn => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });
const done: ScenarioTurn = { text: "<attempt_completion>\n<result>finished</result>\n</attempt_completion>" };

/** One task whose asks the user answers: yes to everything but `git push`. */
async function taskAnswered(lines: string[]): Promise<void> {
  const server = await fixture.startServer({ turns: [...lines.map(command), done] });
  const cli = startCli(["run", "--json", ...anthropicArgs(server), "run the checks"], { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace, keepStdinOpen: true });
  const answered = new Set<string>();
  cli.child.stdout?.on("data", () => {
    for (const event of cli.events()) {
      const id = String(event["id"]);
      if (event["type"] !== "ask" || answered.has(id)) continue;
      answered.add(id);
      cli.child.stdin?.write(`${JSON.stringify({ id, response: String(event["text"]).includes("git push") ? "no" : "yes" })}\n`);
    }
  });
  expect(await cli.exit, cli.stderr).toBe(0);
}

async function history(): Promise<void> {
  await taskAnswered(["npm test", "npm run lint", "git push"]);
  await taskAnswered(["npm test", "npm run lint"]);
  await taskAnswered(["npm test"]);
}

const userConfig = (): string => join(fixture.sandbox.configDir, "cairn", "config.json");

describe("cairn permissions suggest: rules learned from what you approved by hand", () => {
  it("proposes the narrowest rule the history supports, with the asks it saves and what you refused that it would allow; writes only with a yes", { timeout: 180_000 }, async () => {
    await history();
    const before = await readFile(userConfig(), "utf8");
    const shown = await fixture.run(["permissions", "suggest"]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("From 3 tasks of this folder (6 actions):");
    expect(shown.stdout).toContain("allow Bash(npm test): would have saved 3 asks in 3 tasks");
    expect(shown.stdout).toContain("allow Bash(npm run lint): would have saved 2 asks in 2 tasks");
    expect(shown.stdout).not.toContain("git push:");
    expect(shown.stdout).toContain("Nothing was written (run again with --yes to save them).");
    expect(await readFile(userConfig(), "utf8")).toBe(before);

    const json = await fixture.run(["permissions", "suggest", "--json", "--min", "3"]);
    const parsed = JSON.parse(json.stdout) as { suggestions: Array<{ rule: string; savedAsks: number }>; written: boolean };
    expect(parsed.suggestions.map((entry) => entry.rule)).toEqual(["Bash(npm test)"]);
    expect(parsed.written).toBe(false);

    const saved = await fixture.run(["permissions", "suggest", "--yes"]);
    expect(saved.stdout).toContain(`Saved in ${userConfig()}.`);
    const config = JSON.parse(await readFile(userConfig(), "utf8")) as { permissions: { allow: string[] }; sandbox: string };
    expect(config.permissions.allow).toEqual(["Bash(npm test)", "Bash(npm run lint)"]);
    expect(config.sandbox).toBe("off");
    // With the rules in force, nothing is left to learn.
    expect((await fixture.run(["permissions", "suggest"])).stdout).toContain("no rule would have saved enough asks");
  });

  it("names every action a broad rule would have allowed that you refused", { timeout: 180_000 }, async () => {
    await history();
    const shown = await fixture.run(["permissions", "suggest", "--json", "--min", "1"]);
    const parsed = JSON.parse(shown.stdout) as { suggestions: Array<{ rule: string; refusedButAllowed: Array<{ text: string }> }> };
    // git push was refused, so no rule for it; the ones proposed allow nothing refused.
    expect(parsed.suggestions.every((entry) => entry.refusedButAllowed.length === 0)).toBe(true);
    await writeFile(join(fixture.sandbox.workspace, "broad.json"), JSON.stringify({ permissions: { allow: ["Bash(git:*)", "Bash(npm:*)"] } }));
    const replay = await fixture.run(["permissions", "replay", "--rules", "broad.json", "--json"]);
    const totals = (JSON.parse(replay.stdout) as { totals: Record<string, number> }).totals;
    expect(totals).toMatchObject({ actions: 6, allow: 6, ask: 0, deny: 0, asksSaved: 5, refusedButAllowed: 1 });
  });
});

describe("cairn permissions replay: what a rule set would have done", () => {
  it("shows each past action's decision under the rules beside what happened, and the differences", { timeout: 180_000 }, async () => {
    await history();
    await writeFile(join(fixture.sandbox.workspace, "policy.json"), JSON.stringify({ permissions: { allow: ["Bash(npm test:*)"], deny: ["Bash(git push:*)"] } }));
    const replay = await fixture.run(["permissions", "replay", "--rules", "policy.json"]);
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain("* allow npm test  (execute_command; asked, you approved)");
    expect(replay.stdout).toContain("  ask   npm run lint  (execute_command; asked, you approved)");
    expect(replay.stdout).toContain("* deny  git push  (execute_command; asked, you refused)");
    expect(replay.stdout).toContain(
      "6 actions of 3 tasks: 3 allowed, 2 asked, 1 denied under these rules; 4 decided otherwise than what happened (marked *): 3 asks saved, 0 allowed that you refused, 0 that ran would have been stopped.",
    );
    const limited = await fixture.run(["permissions", "replay", "--rules", "policy.json", "--tasks", "1", "--json"]);
    expect((JSON.parse(limited.stdout) as { tasks: number; actions: unknown[] }).actions).toHaveLength(1);
    const missing = await fixture.run(["permissions", "replay", "--rules", "nowhere.json"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--rules nowhere.json");
  });
});
