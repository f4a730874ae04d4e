/**
 * One task's view of the rules: the files it touched (which bring in nested
 * AGENTS.md files and conditional rules) and the rules switched off (`/rules`).
 */
import { resolve } from "node:path";
import type { ToolExecutor } from "../task/contracts/tool-executor.js";
import { withExecuteTool } from "../task/contracts/tool-executor.js";
import { listRules } from "./rules.js";
import type { ListedRule, RulePlaces } from "./rules.js";

/** Rules switched off, by task: a task resumed in the same process (the terminal UI) keeps its toggles. */
const disabledByTask = new Map<string, Set<string>>();

export class TaskRules {
  readonly touched = new Set<string>();
  readonly disabled: Set<string>;

  constructor(private readonly options: RulePlaces & { taskId?: string }) {
    const known = options.taskId === undefined ? undefined : disabledByTask.get(options.taskId);
    this.disabled = known ?? new Set<string>();
    if (options.taskId !== undefined && known === undefined) disabledByTask.set(options.taskId, this.disabled);
  }

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
    const { taskId: _taskId, ...places } = this.options;
    return listRules({ ...places, touched: this.touched, disabled: this.disabled });
  }

  /** `/rules`: the list with marks, or toggles the rule named (its source, or a unique part of it). */
  async command(argument: string): Promise<string> {
    const listed = await this.list();
    const wanted = argument.trim();
    if (wanted === "") {
      if (listed.length === 0) return "No rules: add AGENTS.md, CLAUDE.md, .clinerules or .cairn/rules/ (or /newrule).";
      const lines = listed.map(({ rule, applies, enabled }) => `${enabled ? "[x]" : "[ ]"} ${rule.source}${applies ? "" : ` (only with ${(rule.paths ?? []).join(", ")})`}`);
      return `${lines.join("\n")}\n/rules NAME switches one off or on for this task.`;
    }
    const exact = listed.find(({ rule }) => rule.source === wanted);
    const partial = listed.filter(({ rule }) => rule.source.includes(wanted));
    const target = exact ?? (partial.length === 1 ? partial[0] : undefined);
    if (target === undefined) return partial.length > 1 ? `"${wanted}" matches several rules: ${partial.map(({ rule }) => rule.source).join(", ")}` : `No rule matches "${wanted}".`;
    return `${target.rule.source} is now ${this.toggle(target.rule.source) ? "on" : "off"} for this task.`;
  }
}

/** Notes the path of every tool call, so the next request carries the rules of the folders now in play. */
export function withRulePathTracking(executor: ToolExecutor, rules: TaskRules): ToolExecutor {
  const note = (params: Record<string, string>): void => {
    const path = params["path"];
    if (path !== undefined && path.trim() !== "") rules.touch(path.trim());
  };
  return withExecuteTool(executor, async (block, context) => {
    note(block.params);
    return executor.executeTool(block, context);
  });
}
