/**
 * Issue #19: `cairn eval` runs a suite (locally, side by side), reports each
 * case and the totals as a table and as JSON, and `cairn eval compare` shows
 * what changed between two runs. The sample suite ships with cairn.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../cli/test-support/cli-harness.js";
import type { EvalReport } from "./eval-report.js";
import { loadSuite } from "./suite.js";

const samples = fileURLToPath(new URL("../../samples/eval/", import.meta.url));
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const lazy = { turns: [{ text: "<attempt_completion>\n<result>\nLooks fine to me.\n</result>\n</attempt_completion>" }] };

async function writeSuite(path: string, clampScenario: unknown): Promise<void> {
  await writeFile(
    path,
    JSON.stringify({
      name: "clamp-only",
      cases: [
        { name: "clamp", repo: join(samples, "repos", "math"), task: "fix clamp", scenario: clampScenario, check: "node --test test/clamp.test.js" },
        { name: "factorial", repo: join(samples, "repos", "math"), task: "fix factorial", scenario: join(samples, "scenarios", "factorial.json"), check: "node --test test/factorial.test.js" },
      ],
    }),
  );
}

describe("cairn eval runs a suite and compares runs", () => {
  it("the sample suite: at least ten cases on bundled repositories, every one passing locally, as a table and as JSON", async () => {
    const suite = await loadSuite(join(samples, "suite.json"));
    expect(suite.cases.length).toBeGreaterThanOrEqual(10);
    sandbox = await makeSandbox();
    const out = join(sandbox.root, "samples.json");
    const run = await runCli(["eval", join(samples, "suite.json"), "--yes", "--concurrency", "2", "--out", out], { env: sandbox.env, cwd: sandbox.root });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^CASE\s+RESULT\s+STATUS\s+TURNS\s+TOKENS\s+COST\s+TIME/m);
    expect(run.stdout).toMatch(new RegExp(`total \\(${suite.cases.length}\\)\\s+${suite.cases.length} passed\\s+0 failed`));
    const report = JSON.parse(await readFile(out, "utf8")) as EvalReport;
    expect(report.mode).toBe("local");
    expect(report.cases.map((entry) => entry.name)).toEqual(suite.cases.map((entry) => entry.name));
    for (const entry of report.cases) {
      expect(entry.pass, `${entry.name}: ${entry.error ?? entry.check?.output ?? ""}`).toBe(true);
      expect(entry.check?.exitCode).toBe(0);
      expect(entry.turns).toBeGreaterThanOrEqual(3);
      expect(entry.tokensIn).toBeGreaterThan(0);
    }
    expect(report.totals.turns).toBe(report.cases.reduce((sum, entry) => sum + entry.turns, 0));
  }, 180_000);

  it("a case whose check fails is reported as failed, and eval compare shows what a second run fixed", async () => {
    sandbox = await makeSandbox();
    const box = sandbox;
    const suitePath = join(box.root, "suite.json");
    await writeSuite(suitePath, lazy);
    const before = join(box.root, "before.json");
    const first = await runCli(["eval", suitePath, "--yes", "--local", "--out", before], { env: box.env, cwd: box.root });
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(/^clamp\s+FAIL\s+completed/m);
    expect(first.stdout).toMatch(/^factorial\s+pass\s+completed/m);
    expect(first.stdout).toMatch(/clamp: the check exited with 1/);

    await writeSuite(suitePath, join(samples, "scenarios", "clamp.json"));
    const after = join(box.root, "after.json");
    const second = await runCli(["eval", suitePath, "--yes", "--json"], { env: box.env, cwd: box.root });
    expect(second.status).toBe(0);
    await writeFile(after, second.stdout);

    const compare = await runCli(["eval", "compare", before, after], { env: box.env, cwd: box.root });
    expect(compare.status).toBe(0);
    expect(compare.stdout).toMatch(/^clamp\s+fixed\s+\+2/m);
    expect(compare.stdout).toMatch(/^factorial\s+still passing\s+0/m);
    expect(compare.stdout).toMatch(/^total\s+\+1 passing/m);
    const json = await runCli(["eval", "compare", before, after, "--json"], { env: box.env, cwd: box.root });
    expect(JSON.parse(json.stdout)).toMatchObject({ totals: { passed: 1, turns: 2 } });
  }, 120_000);

  it("a bad suite is refused with the key named, and a missing results file with its path", async () => {
    sandbox = await makeSandbox();
    const suitePath = join(sandbox.root, "bad.json");
    await writeFile(suitePath, JSON.stringify({ cases: [{ name: "x", repo: ".", task: "t", check: 3 }] }));
    const run = await runCli(["eval", suitePath], { env: sandbox.env, cwd: sandbox.root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/cases\.0\.check/);
    const compare = await runCli(["eval", "compare", join(sandbox.root, "a.json"), join(sandbox.root, "b.json")], { env: sandbox.env, cwd: sandbox.root });
    expect(compare.status).toBe(2);
    expect(compare.stderr).toMatch(/a\.json/);
  });
});
