/** Temporary workspaces for tool tests: created under os.tmpdir(), removed afterwards. */
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolUseBlock } from "../../parser/types.js";
import { createToolExecutor, type CairnToolExecutor, type ToolExecutorOptions } from "../create-tool-executor.js";

export interface TestWorkspace {
  /** The folder holding the workspace and its siblings. */
  base: string;
  root: string;
  dataDir: string;
  path(relative: string): string;
  write(relative: string, content: string | Buffer): string;
  cleanup(): void;
}

export function createTestWorkspace(files: Record<string, string | Buffer> = {}): TestWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "cairn-tools-")));
  const root = join(base, "ws");
  const dataDir = join(base, "data");
  mkdirSync(root);
  const workspace: TestWorkspace = {
    base,
    root,
    dataDir,
    path: (relative) => join(root, relative),
    write(relative, content) {
      const target = join(root, relative);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
      return target;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) workspace.write(relative, content);
  return workspace;
}

export function createTestExecutor(workspace: TestWorkspace, overrides: Partial<ToolExecutorOptions> = {}): CairnToolExecutor {
  return createToolExecutor({
    workspace: workspace.root,
    dataDir: workspace.dataDir,
    yes: false,
    allowOutsideWrites: false,
    protocol: "xml",
    shell: "/bin/sh",
    ...overrides,
  });
}

let nextId = 0;

export function toolCall(name: string, params: Record<string, string>): ToolUseBlock {
  nextId += 1;
  return { type: "tool_use", id: `call-${nextId}`, name, params, partial: false };
}
