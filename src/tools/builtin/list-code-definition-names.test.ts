import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseDefinitions } from "../code-definitions/definition-parser.js";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({
    "src/service.ts": "import x from 'y';\n\nexport class Service {\n  start(): void {}\n}\n\nexport interface Options {}\nexport const helper = () => 1;\n",
    "src/readme.md": "# not code\n",
    "src/.cairnignore-me.ts": "export function hidden() {}\n",
    ".cairnignore": "src/.cairnignore-me.ts\n",
  });
});
afterEach(() => workspace.cleanup());

const samples: Array<[string, string, string[]]> = [
  [".ts", "export class A { m(): void {} }\ninterface I {}\ntype T = number;\nenum E { a }\nexport const f = () => 1;\nfunction g() {}\n", ["A", "m", "I", "T", "E", "f", "g"]],
  [".js", "class A { m() {} }\nconst f = function() {};\nfunction g() {}\n", ["A", "m", "f", "g"]],
  [".py", "class A:\n    def m(self):\n        pass\ndef f():\n    pass\n", ["A", "m", "f"]],
  [".go", "package x\ntype S struct{}\nfunc (s S) M() {}\nfunc F() {}\n", ["S", "M", "F"]],
  [".rs", "struct S;\nenum E { A }\ntrait T {}\nimpl S { fn m(&self) {} }\nfn f() {}\n", ["S", "E", "T", "S", "m", "f"]],
  [".java", "class A { void m() {} }\ninterface I {}\nenum E { X }\n", ["A", "m", "I", "E"]],
  [".c", "struct s { int a; };\ntypedef int t;\nint f(void) { return 0; }\n", ["s", "t", "f"]],
  [".cpp", "namespace n { class C { void m(); }; }\nvoid C::m() {}\nint f() { return 0; }\n", ["n", "C", "C::m", "f"]],
];

describe("list_code_definition_names", () => {
  for (const [extension, source, names] of samples) {
    it(`finds definitions in ${extension} files`, async () => {
      expect((await parseDefinitions(extension, source)).map((definition) => definition.name)).toEqual(names);
    });
  }

  it("lists the definitions of a folder's source files with line numbers, skipping ignored files", async () => {
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("list_code_definition_names", { path: "src" }), createRecordingContext());
    const text = textOf(outcome.content);
    expect(text).toBe("service.ts\n3 | export class Service {\n4 | start(): void {}\n7 | export interface Options {}\n8 | export const helper = () => 1;");
  });

  it("explains a folder without definitions and a file it cannot parse", async () => {
    workspace.write("empty/notes.txt", "x");
    const executor = createTestExecutor(workspace);
    expect(textOf((await executor.executeTool(toolCall("list_code_definition_names", { path: "empty" }), createRecordingContext())).content)).toContain("No definitions found");
    expect(textOf((await executor.executeTool(toolCall("list_code_definition_names", { path: "src/readme.md" }), createRecordingContext())).content)).toContain("not a source file");
  });

  it("follows no link out of the workspace or into an ignored folder: every walked file is checked by its real path", async () => {
    workspace.write("../outside/stolen.ts", "export function outsideSecret() {}\n");
    workspace.write("vault/hidden.ts", "export function vaultSecret() {}\n");
    workspace.write(".cairnignore", "src/.cairnignore-me.ts\nvault/\n");
    symlinkSync(join(workspace.base, "outside", "stolen.ts"), workspace.path("src/link-out.ts"));
    symlinkSync(workspace.path("vault/hidden.ts"), workspace.path("src/link-ignored.ts"));
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("list_code_definition_names", { path: "src" }), createRecordingContext());
    const text = textOf(outcome.content);
    expect(text).toContain("export class Service");
    expect(text).not.toContain("outsideSecret");
    expect(text).not.toContain("vaultSecret");
  });
});
