/**
 * Journey: a CI job runs cairn with no terminal, stdin closed, in print mode
 * with JSON output, and with the sandbox on as nobody turned it off. The job
 * must never wait for anyone, must print only machine-readable lines on
 * stdout, and must say through its exit status how the task ended (bin/cairn:
 * run `npm run build` first).
 */
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { cairnBin, runCli } from "../cli/test-support/cli-harness.js";
import { checkBubblewrap } from "../security/sandbox.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } }));
    await writeFile(join(sandbox.workspace, "sum.js"), "export const sum = (a, b) => a - b;\n");
    await writeFile(join(sandbox.workspace, "sum.test.js"), 'import { sum } from "./sum.js";\nif (sum(2, 3) !== 5) { console.error("sum(2, 3) should be 5"); process.exit(1); }\nconsole.log("ok");\n');
    await writeFile(join(sandbox.workspace, "package.json"), JSON.stringify({ type: "module" }));
  },
});

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const fix = "<replace_in_file>\n<path>sum.js</path>\n<diff>\n------- SEARCH\nexport const sum = (a, b) => a - b;\n=======\nexport const sum = (a, b) => a + b;\n+++++++ REPLACE\n</diff>\n</replace_in_file>";
const complete = (text: string): string => `<attempt_completion>\n<result>${text}</result>\n</attempt_completion>`;

type JsonLine = Record<string, unknown>;
const jsonLines = (stdout: string): JsonLine[] =>
  stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as JsonLine);

describe.skipIf(!checkBubblewrap().ok)("journey: a CI job", () => {
  it("fixes a failing test with no terminal and stdin closed: JSON lines only, the fix on disk, exit 0; plain print mode prints only the answer; a spent budget and a rejected key end with their own exit status", async () => {
    // The task comes from the pipeline's step, stdin is closed, no --yes: print mode never asks about the completion.
    const server = await cli.startServer({ turns: [{ text: command("node sum.test.js") }, { text: fix }, { text: command("node sum.test.js") }, { text: complete("sum adds now; the test passes.") }] });
    const run = await runCli([...anthropicArgs(server), "-p", "--json", "--allowed-tools", "Edit(sum.js)", "fix the failing test"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(run.status, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.every((line) => line["v"] === 2)).toBe(true);
    const result = lines.at(-1)!;
    expect(result).toMatchObject({ type: "result", status: "completed", exitStatus: 0, refused: 0 });
    expect(await readFile(join(cli.sandbox.workspace, "sum.js"), "utf8")).toBe("export const sum = (a, b) => a + b;\n");
    // The failing run and the passing one both reached the model, with their exit status.
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/sum\(2, 3\) should be 5/);
    expect(JSON.stringify(server.requests[3]?.body)).toMatch(/ok/);

    // The next step keeps the newest checkpoint's id: `cairn checkpoints <id> | head -n 1` ends quietly when head has read its line.
    const taskId = String(result["taskId"]);
    const newest = spawnSync("bash", ["-c", `'${process.execPath}' '${cairnBin}' checkpoints ${taskId} | head -n 1; exit "\${PIPESTATUS[0]}"`], { env: cli.sandbox.env, cwd: cli.sandbox.workspace, encoding: "utf8" });
    expect(newest.stderr).toBe("");
    expect(newest.status).toBe(0);
    expect(newest.stdout).toMatch(/^[0-9a-f]{12}\s.*\n$/);

    // Plain print mode, the task piped in: stdout is the answer and nothing else.
    const plainServer = await cli.startServer({ turns: [{ text: complete("Nothing to change.") }] });
    const plain = await runCli([...anthropicArgs(plainServer), "-p"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace, stdin: "check the repository\n" });
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout.trim()).toBe("Nothing to change.");
    expect(JSON.stringify(plainServer.requests[0]?.body)).toContain("check the repository");

    // A budget the job sets: the task stops with the budget's exit status, said in the result line.
    const spender = await cli.startServer({ turns: [{ text: command("node sum.test.js") }, { text: command("node sum.test.js") }, { text: complete("never") }] });
    const spent = await runCli([...anthropicArgs(spender), "-p", "--json", "--max-requests", "1", "keep testing"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(spent.status).toBe(3);
    expect(jsonLines(spent.stdout).at(-1)).toMatchObject({ type: "result", status: "budget", exitStatus: 3 });

    // A rejected key: exit 1, the reason on stderr, the key never printed.
    const rejecting = await cli.startServer({ turns: [{ error: { status: 401 } }] });
    const rejected = await runCli([...anthropicArgs(rejecting, "sk-ci-secret-0123456789"), "-p", "--json", "do something"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(rejected.status).toBe(1);
    expect(rejected.stdout + rejected.stderr).not.toContain("sk-ci-secret-0123456789");
    expect(jsonLines(rejected.stdout).at(-1)).toMatchObject({ type: "result", exitStatus: 1 });
  }, 90_000);
});
