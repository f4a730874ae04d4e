/**
 * Journey (#32): a developer lets cairn change a function's return type in a
 * TypeScript project; the edit's result names the type error it caused in
 * the file that imports it, and the model's next turn fixes that error before
 * completing. Headless with --json, the sandbox on, real language servers
 * (bin/cairn: run `npm run build` first).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import { repositoryWith } from "../test-support/git-repository.js";
import { sandboxUsable, say } from "./test-support/model-turns.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    // The language servers the test sandbox turns off (cli-harness.ts) are what this journey is about.
    delete sandbox.env["CAIRN_LSP"];
    // A loaded machine may take more than the default 5 s to start tsserver cold.
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ timeouts: { diagnosticsMs: 60_000 } }));
    await writeFile(join(sandbox.workspace, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", noEmit: true }, include: ["src"] }));
    await writeFile(join(sandbox.workspace, "package.json"), JSON.stringify({ type: "module" }));
    await import("node:fs/promises").then((fs) => fs.mkdir(join(sandbox.workspace, "src")));
    await writeFile(join(sandbox.workspace, "src", "total.ts"), "export function total(values: number[]): number {\n  return values.reduce((sum, value) => sum + value, 0);\n}\n");
    await writeFile(join(sandbox.workspace, "src", "report.ts"), 'import { total } from "./total.js";\n\nexport const line: number = total([1, 2, 3]);\n');
  },
});

type JsonLine = Record<string, unknown> & { meta?: Record<string, unknown> };

describe.skipIf(!sandboxUsable("type error fixed in the next turn"))("journey: a type error named after the edit and fixed in the next turn", () => {
  it("the edit's result names the error in the importing file; the next turn fixes it, its result reports nothing new, and the task completes", async () => {
    const server = await cli.startServer({
      turns: [
        say.read("src/report.ts"),
        { text: "<lsp>\n<operation>references</operation>\n<path>src/total.ts</path>\n<line>1</line>\n<query>total</query>\n</lsp>" },
        say.edit(
          "src/total.ts",
          "export function total(values: number[]): number {\n  return values.reduce((sum, value) => sum + value, 0);",
          "export function total(values: number[]): string {\n  return values.reduce((sum, value) => sum + value, 0).toFixed(2);",
        ),
        say.edit("src/report.ts", "export const line: number = total([1, 2, 3]);", "export const line: string = total([1, 2, 3]);"),
        say.complete("total() returns a formatted string; report.ts follows."),
      ],
    });
    const run = await runCli([...anthropicArgs(server), "-p", "--json", "--yes", "make total() return the sum formatted with two decimals"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(run.status, run.stderr).toBe(0);

    // The lsp tool found the importer.
    expect(JSON.stringify(server.requests[2]?.body)).toContain("src/report.ts:3:");
    // The edit's result, as the model read it: the new error, in the importing file, with its line.
    const afterBreak = JSON.stringify(server.requests[3]?.body);
    expect(afterBreak).toContain("New problems detected after this edit (1 error):");
    expect(afterBreak).toContain("src/report.ts (imports src/total.ts):");
    expect(afterBreak).toContain("- line 3: error TS2322: Type 'string' is not assignable to type 'number'.");
    // The fix's result says nothing new.
    const lastResult = JSON.stringify((server.requests[4]?.body as { messages?: unknown[] } | undefined)?.messages?.at(-1));
    expect(lastResult).toContain("Applied 1 block(s) to src/report.ts");
    expect(lastResult).not.toContain("New problems");

    // --json carries the counts on the edit's card.
    const lines = run.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as JsonLine);
    const counts = lines.flatMap((line) => (line.meta?.["diagnostics"] === undefined ? [] : [line.meta["diagnostics"]]));
    expect(counts).toContainEqual({ errors: 1, warnings: 0 });
    expect(counts).toContainEqual({ errors: 0, warnings: 0 });
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "completed", exitStatus: 0 });
    expect(await readFile(join(cli.sandbox.workspace, "src", "report.ts"), "utf8")).toContain("export const line: string = total([1, 2, 3]);");
  }, 120_000);

  it("a subagent in its own worktree is told of the error its edit made there, and the parent is told again when its change is merged", async () => {
    const ws = cli.sandbox.workspace;
    const files = ["tsconfig.json", "package.json", "src/total.ts", "src/report.ts"];
    await repositoryWith(ws, Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(join(ws, file), "utf8")] as const))));
    const breakTotal = say.edit(
      "src/total.ts",
      "export function total(values: number[]): number {",
      "export function total(values: number[]): string {\n  return String(values.length);\n}\nexport function unused(values: number[]): number {",
    );
    const server = await cli.startServer({
      turns: [say.subagents([{ prompt: "TYPES: make total() return a string" }]), say.complete("merged")],
      conversations: [{ match: "TYPES:", turns: [breakTotal, say.complete("total() returns a string now")] }],
    });
    const run = await runCli([...anthropicArgs(server), "-p", "--json", "--yes", "have a subagent change total()"], { env: cli.sandbox.env, cwd: ws });
    expect(run.status, run.stderr).toBe(0);
    const bodies = server.requests.map((request) => JSON.stringify(request.body));
    // The child's edit, in its worktree: the error in the file that imports it.
    const child = bodies.find((body) => body.includes("TYPES:") && body.includes("Applied 1 block(s) to src/total.ts"));
    expect(child).toContain("New problems detected after this edit (1 error):");
    expect(child).toContain("- line 3: error TS2322: Type 'string' is not assignable to type 'number'.");
    // The merge into the workspace: the parent reads the same problem in use_subagents' result.
    const parent = bodies.at(-1);
    expect(parent).toContain('status=\\"merged\\"');
    expect(parent).toContain("src/report.ts (imports src/total.ts):");
    expect(await readFile(join(ws, "src", "total.ts"), "utf8")).toContain("): string {");
  }, 120_000);
});
