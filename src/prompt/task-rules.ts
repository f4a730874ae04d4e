/**
 * One task's view of the rules: the files it touched (which bring in nested
 * AGENTS.md files and conditional rules) and the rules switched off (`/rules`).
 */
import { resolve } from "node:path";
import type { ToolExecutor } from "../task/tool-executor.js";
import { listRules } from "./rules.js";
import type { ListedRule } from "./rules.js";

export class TaskRules {
  readonly touched = new Set<string>();
  readonly disabled = new Set<string>();

  constructor(private readonly options: { workspace: string; globalRulesDir?: string }) {}

  touch(path: string): void {
    this.touched.add(resolve(this.options.workspace, path));
  }

  /** Switches a rule on or off for this task; returns whether it is now on. */
  toggle(source: string): boolean {
    if (this.disabled.delete(source)) return true;
    this.disabled.add(source);
    return false;
  }

  list(): Promise<ListedRule[]> {
    return listRules({ ...this.options, touched: this.touched, disabled: this.disabled });
  }
}

/** Notes the path of every tool call, so the next request carries the rules of the folders now in play. */
export function withRulePathTracking(executor: ToolExecutor, rules: TaskRules): ToolExecutor {
  const note = (params: Record<string, string>): void => {
    const path = params["path"];
    if (path !== undefined && path.trim() !== "") rules.touch(path.trim());
  };
  return {
    toolSchemas: (mode) => executor.toolSchemas(mode),
    promptDescriptions: (mode) => executor.promptDescriptions(mode),
    toolNames: () => executor.toolNames(),
    parameterNames: () => executor.parameterNames(),
    isReadOnly: (name) => executor.isReadOnly(name),
    presentPartial: (block, context) => executor.presentPartial(block, context),
    abortAll: () => executor.abortAll(),
    executeTool: async (block, context) => {
      note(block.params);
      return executor.executeTool(block, context);
    },
  };
}
