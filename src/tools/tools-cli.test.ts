/**
 * Every built-in tool through `bin/cairn run` against the scripted LLM server,
 * in both tool protocols (needs `npm run build` first, as every CLI test).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { createTestWorkspace, type TestWorkspace } from "./test-support/test-workspace.js";
import { withoutSandboxNotice } from "../cli/test-support/cli-harness.js";

const cairn = join(dirname(fileURLToPath(import.meta.url)), "../../bin/cairn");

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "code.ts": "export function a() {\n  return 1;\n}\nconst b = 2;\n", ".cairnignore": "secret.env\n", "secret.env": "KEY=1\n" });
});
afterEach(() => workspace.cleanup());

function runCairn(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cairn, "run", "--cwd", workspace.root, "--data-dir", workspace.dataDir, "--yes", "--json", "--sandbox", "off", ...args, "use the tools"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CAIRN_HOME: workspace.dataDir },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const diff = "------- SEARCH\nconst b = 2;\n=======\nconst b = 3;\n+++++++ REPLACE";

describe("tools through bin/cairn run", () => {
  it("xml protocol: every file, search, command and conversation tool works end to end", async () => {
    const xmlTurns = [
      "<read_file>\n<path>code.ts</path>\n</read_file>",
      `<replace_in_file>\n<path>code.ts</path>\n<diff>\n${diff}\n</diff>\n</replace_in_file>`,
      "<execute_command>\n<command>cat code.ts; echo from-shell</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
      "<write_to_file>\n<path>sub/new.txt</path>\n<content>\nnew file\n</content>\n</write_to_file>",
      "<search_files>\n<path>.</path>\n<regex>const b</regex>\n</search_files>",
      "<list_files>\n<path>.</path>\n<recursive>true</recursive>\n</list_files>",
      "<list_code_definition_names>\n<path>.</path>\n</list_code_definition_names>",
      "<read_file>\n<path>secret.env</path>\n</read_file>",
      '<ask_followup_question>\n<question>Which?</question>\n<options>["a","b"]</options>\n</ask_followup_question>',
      "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>",
    ];
    const scenario: Scenario = { turns: xmlTurns.map((text) => ({ text })) };
    const server = await startScriptedServer({ scenario });
    try {
      const result = await runCairn(["--provider", "anthropic", "--api-key", "test", "--base-url", server.url, "--tool-protocol", "xml"]);
      expect(withoutSandboxNotice(result.stderr)).toBe("");
      expect(result.code).toBe(0);
      expect(readFileSync(workspace.path("code.ts"), "utf8")).toContain("const b = 3;");
      expect(readFileSync(workspace.path("sub/new.txt"), "utf8")).toContain("new file");
      const sent = JSON.stringify(server.requests.at(-1)?.body);
      for (const expected of [
        "export function a() {",
        "lines 4-4 (exact match)",
        "from-shell",
        "The command exited with code 0",
        "Created sub/new.txt",
        "4: const b = 3;",
        "sub/new.txt",
        "1 | export function a() {",
        "blocked by the workspace's .cairnignore",
        "There is no user to answer",
      ]) {
        expect(sent).toContain(JSON.stringify(expected).slice(1, -1));
      }
      expect(sent).not.toContain("KEY=1");
    } finally {
      await server.close();
    }
  });

  it("native protocol: typed arguments arrive as the tools expect them", async () => {
    const scenario: Scenario = {
      turns: [
        { toolCalls: [{ name: "read_file", arguments: { path: "code.ts", start_line: 4 } }] },
        { toolCalls: [{ name: "replace_in_file", arguments: { path: "code.ts", diff } }] },
        { toolCalls: [{ name: "execute_command", arguments: { command: "echo native-shell", requires_approval: false, timeout: 30 } }] },
        { toolCalls: [{ name: "ask_followup_question", arguments: { question: "Which?", options: ["a", "b"] } }] },
        { toolCalls: [{ name: "write_to_file", arguments: { path: "n.txt", content: "x\n" } }] },
        { toolCalls: [{ name: "list_files", arguments: { path: ".", recursive: false } }] },
        { toolCalls: [{ name: "attempt_completion", arguments: { result: "Done." } }] },
      ],
    };
    const server = await startScriptedServer({ scenario });
    try {
      const result = await runCairn(["--provider", "openai", "--api-key", "test", "--base-url", `${server.url}/v1`, "--tool-protocol", "native"]);
      expect(withoutSandboxNotice(result.stderr)).toBe("");
      expect(result.code).toBe(0);
      const tools = (server.requests[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((tool) => tool.function.name);
      expect(tools).toEqual(expect.arrayContaining(["read_file", "replace_in_file", "execute_command", "attempt_completion"]));
      expect(readFileSync(workspace.path("code.ts"), "utf8")).toContain("const b = 3;");
      expect(readFileSync(workspace.path("n.txt"), "utf8")).toBe("x\n");
      const sent = JSON.stringify(server.requests.at(-1)?.body);
      for (const expected of ["Showing lines 4-4 of 4.", "exact match", "native-shell", "There is no user to answer", "Created n.txt", "code.ts"]) {
        expect(sent).toContain(expected);
      }
    } finally {
      await server.close();
    }
  });
});
