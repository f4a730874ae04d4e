/**
 * Issue #32 with real servers: typescript-language-server (cairn's TypeScript)
 * and pyright, started once for this file's workspace; only the tool calls vary.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../tools/approval.js";
import { createRecordingContext, textOf } from "../tools/test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../tools/test-support/test-workspace.js";
import type { CairnToolExecutor } from "../tools/create-tool-executor.js";
import { LanguageServers } from "./language-servers.js";
import { processesInGroup } from "./test-support/process-group.js";

let workspace: TestWorkspace;
let languages: LanguageServers;
let executor: CairnToolExecutor;

beforeAll(() => {
  workspace = createTestWorkspace({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", noEmit: true }, include: ["src"] }),
    "src/total.ts": "export function total(values: number[]): number {\n  return values.reduce((sum, value) => sum + value, 0);\n}\n",
    "src/report.ts": 'import { total } from "./total.js";\n\nexport const sum: number = total([1, 2, 3]);\n',
    "src/broken.ts": "export const count: number = 1;\n",
    "py/prices.py": "def price(amount: int) -> int:\n    return amount * 2\n",
    "py/shop.py": "from prices import price\n\nbill: int = price(3)\n",
  });
  // Generous for a loaded machine: the first check of a cold server is what the deadline is for.
  languages = new LanguageServers({ workspace: workspace.root, policy: undefined, editWaitMs: 30_000 });
  executor = createTestExecutor(workspace, { approval: { ...defaultApprovalSettings, editInside: true }, languages });
});
afterAll(async () => {
  await languages.shutdown();
  workspace.cleanup();
});

async function run(name: string, params: Record<string, string>) {
  const outcome = await executor.executeTool(toolCall(name, params), createRecordingContext());
  return { outcome, text: textOf(outcome.content) };
}

describe("new problems after an edit (real language servers)", () => {
  it("an edit that breaks a type names the error in the importing file, with its line", async () => {
    const { outcome, text } = await run("replace_in_file", {
      path: "src/total.ts",
      diff: "------- SEARCH\nexport function total(values: number[]): number {\n=======\nexport function total(values: number[]): string {\n+++++++ REPLACE\n------- SEARCH\n  return values.reduce((sum, value) => sum + value, 0);\n=======\n  return String(values.reduce((sum, value) => sum + value, 0));\n+++++++ REPLACE",
    });
    expect(outcome.status).toBe("success");
    expect(text).toContain("New problems detected after this edit (1 error):");
    expect(text).toContain("src/report.ts (imports src/total.ts):");
    expect(text).toContain("- line 3: error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(outcome.card?.diagnostics).toEqual({ errors: 1, warnings: 0 });
  }, 60_000);

  it("the edit that fixes the error reports no new problem", async () => {
    const { outcome, text } = await run("write_to_file", { path: "src/total.ts", content: "export function total(values: number[]): number {\n  return values.reduce((sum, value) => sum + value, 0);\n}\n" });
    expect(outcome.status).toBe("success");
    expect(text).not.toContain("New problems");
    expect(outcome.card?.diagnostics).toEqual({ errors: 0, warnings: 0 });
  }, 60_000);

  it("a problem the file already had is not reported again", async () => {
    await run("write_to_file", { path: "src/broken.ts", content: 'export const count: number = "one";\n' });
    const { text } = await run("write_to_file", { path: "src/broken.ts", content: 'export const count: number = "one";\nexport const other = 2;\n' });
    expect(text).not.toContain("New problems");
  }, 60_000);

  it("pyright names the error an edit of a Python module causes in its importer", async () => {
    const { outcome, text } = await run("write_to_file", { path: "py/prices.py", content: 'def price(amount: int) -> str:\n    return "free"\n' });
    expect(outcome.status).toBe("success");
    expect(text).toContain("py/shop.py (imports py/prices.py):");
    expect(text).toMatch(/- line 3: error reportAssignmentType: Type "str" is not assignable to declared type "int"/);
  }, 60_000);

  it("the lsp tool answers hover, definition, references, symbols and diagnostics", async () => {
    expect((await run("lsp", { operation: "hover", path: "src/report.ts", line: "3", query: "total" })).text).toContain("total(values: number[]): number");
    expect((await run("lsp", { operation: "definition", path: "src/report.ts", line: "3", query: "total" })).text).toContain("src/total.ts:1:17: export function total");
    expect((await run("lsp", { operation: "references", path: "src/total.ts", line: "1", query: "total" })).text).toContain("src/report.ts:3:");
    expect((await run("lsp", { operation: "document_symbols", path: "src/total.ts" })).text).toContain("function total (line 1)");
    expect((await run("lsp", { operation: "workspace_symbols", query: "total", path: "src/total.ts" })).text).toContain("function total: src/total.ts:1");
    expect((await run("lsp", { operation: "diagnostics", path: "src/broken.ts" })).text).toContain("line 1: error Type 'string' is not assignable to type 'number'.");
  }, 60_000);

  it("when the task ends every server process is ended (tsserver with its language server)", async () => {
    const groups = languages.servers().map((server) => server.pid ?? 0);
    expect(groups).toHaveLength(2);
    expect(groups.flatMap((group) => processesInGroup(group)).length).toBeGreaterThanOrEqual(3);
    await languages.shutdown();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(groups.flatMap((group) => processesInGroup(group))).toEqual([]);
  }, 30_000);
});
