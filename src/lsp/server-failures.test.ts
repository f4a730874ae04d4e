/** Issue #32: a language server that dies mid-task, or none at all, never fails or delays an edit. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../tools/approval.js";
import { createRecordingContext, textOf } from "../tools/test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../tools/test-support/test-workspace.js";
import { LanguageServers } from "./language-servers.js";

let workspace: TestWorkspace;
beforeAll(() => {
  workspace = createTestWorkspace({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
    "src/a.ts": "export const a: number = 1;\n",
    "notes/readme.txt": "hello\n",
    "main.go": "package main\n",
  });
});
afterAll(() => workspace.cleanup());

const autoEdits = { ...defaultApprovalSettings, editInside: true };

describe("language servers that fail", () => {
  it("a server killed mid-task: the next edit succeeds at once and says the diagnostics are unavailable; the server starts again for the edits after it", async () => {
    const languages = new LanguageServers({ workspace: workspace.root, policy: undefined, editWaitMs: 30_000 });
    const executor = createTestExecutor(workspace, { approval: autoEdits, languages });
    try {
      const first = await executor.executeTool(toolCall("write_to_file", { path: "src/a.ts", content: 'export const a: number = "x";\n' }), createRecordingContext());
      expect(textOf(first.content)).toContain("TS2322");
      const [server] = languages.servers();
      expect(server?.pid).toBeDefined();
      process.kill(-(server?.pid ?? 0), "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      const second = await executor.executeTool(toolCall("write_to_file", { path: "src/a.ts", content: "export const a: number = 2;\n" }), createRecordingContext());
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(second.status).toBe("success");
      expect(textOf(second.content)).toMatch(/\(No diagnostics for this edit: the typescript server (exited|closed its connection).*; it is starting again\.\)/);
      expect(second.card?.diagnostics?.unavailable).toMatch(/typescript server/);
      const third = await executor.executeTool(toolCall("write_to_file", { path: "src/a.ts", content: 'export const a: number = "y";\n' }), createRecordingContext());
      expect(textOf(third.content)).toContain("TS2322");
      expect(languages.servers().map((running) => running.pid)).not.toContain(server?.pid);
    } finally {
      await languages.shutdown();
    }
  }, 60_000);

  it("files no server serves (and a configured server whose program is missing) are edited with no delay and no note", async () => {
    const languages = new LanguageServers({ workspace: workspace.root, policy: undefined, settings: { gopls: { command: ["gopls-not-installed"], extensions: [".go"] } } });
    const executor = createTestExecutor(workspace, { approval: autoEdits, languages });
    for (const [path, content] of [
      ["notes/readme.txt", "hi\n"],
      ["main.go", "package main\n\nfunc main() {}\n"],
    ] as const) {
      const started = Date.now();
      const outcome = await executor.executeTool(toolCall("write_to_file", { path, content }), createRecordingContext());
      expect(Date.now() - started).toBeLessThan(500);
      expect(outcome.status).toBe("success");
      expect(textOf(outcome.content)).not.toContain("diagnostics");
      expect(outcome.card?.diagnostics).toBeUndefined();
    }
    expect(languages.servers()).toEqual([]);
    await languages.shutdown();
  });

  it("a server slower than the edit's wait: the result goes without diagnostics and says so", async () => {
    const languages = new LanguageServers({ workspace: workspace.root, policy: undefined, editWaitMs: 50 });
    const executor = createTestExecutor(workspace, { approval: autoEdits, languages });
    const started = Date.now();
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "src/a.ts", content: "export const a: number = 3;\n" }), createRecordingContext());
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(textOf(outcome.content)).toContain("(No diagnostics for this edit: the typescript language server did not finish checking within 0.1 s.)");
    await languages.shutdown();
  });
});
