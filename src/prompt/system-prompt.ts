import { homedir, platform, release } from "node:os";
import type { PromptBuilder } from "../task/contracts/prompt-builder.js";
import type { Mode, ToolExecutor } from "../task/contracts/tool-executor.js";
import { environmentDetails } from "./environment-details.js";
import { loadRules, rulesSection } from "./rules.js";
import type { RuleScope } from "./rules.js";

export interface PromptOptions {
  workspace: string;
  toolExecutor: Pick<ToolExecutor, "promptDescriptions">;
  globalRulesDir?: string;
  /** Claude Code's user folder, for the user's memory (`~/.claude/CLAUDE.md`). */
  claudeUserDir?: string;
  /** The task's touched files and rule toggles (nested and conditional rules, `/rules`). */
  ruleScope?: RuleScope;
  /** More sections after the rules (e.g. the skills list, the subagent types, a subagent's own instructions). */
  extraSections?: () => Promise<string[]>;
  shell?: string;
  now?: () => Date;
}

function roleSection(): string {
  return "You are cairn, a highly skilled software engineer working autonomously in the user's repository. You complete the task step by step with the tools below, checking your work as you go.";
}

function toolUseSection(protocol: "xml" | "native", mode: Mode, descriptions: string): string {
  const common = "You use one tool per answer and receive its result in the user's next message. Work step by step: each step builds on the result of the previous one. Never assume a tool succeeded: read its result.";
  if (protocol === "native") {
    return `# TOOL USE\n\n${common} The tools are provided to you as functions; call them with valid JSON arguments.`;
  }
  const format = `Tool calls are written as XML-style tags. The tool's name is the outer tag and each parameter is an inner tag:

<tool_name>
<parameter1_name>value1</parameter1_name>
<parameter2_name>value2</parameter2_name>
</tool_name>

For example:

<read_file>
<path>src/main.js</path>
</read_file>

Always use this format so the call is parsed and run. Put the tool call at the end of your answer.`;
  return `# TOOL USE\n\n${common}\n\n# Tool use formatting\n\n${format}\n\n# Tools (${mode} mode)\n\n${descriptions}`;
}

function editingSection(): string {
  return `# EDITING FILES

- replace_in_file makes targeted edits: SEARCH blocks must match the file exactly, including whitespace; list several blocks in the order they appear in the file; keep each block small with just enough lines to be unique.
- write_to_file creates a file or replaces a whole file; give the complete content, never a partial file with placeholders.
- After an edit, the result shows the file's final state: use it as the reference for further edits.`;
}

function modesSection(mode: Mode): string {
  return `# ACT MODE AND PLAN MODE

You are in ${mode.toUpperCase()} MODE.
- In ACT MODE you use the tools to accomplish the task, and call attempt_completion when it is done.
- In PLAN MODE you gather information and discuss a plan with the user using plan_mode_respond; you do not change files or run commands that change anything. The user switches to ACT MODE when the plan is agreed.`;
}

function systemInfoSection(workspace: string, shell: string): string {
  return `# SYSTEM INFORMATION

Operating system: ${platform()} ${release()}
Default shell: ${shell}
Home directory: ${homedir()}
Current working directory: ${workspace}

Paths you give are relative to the current working directory. Commands run in a new shell in that directory.`;
}

function objectiveSection(): string {
  return `# OBJECTIVE

1. Analyse the task and set clear, achievable goals in a sensible order.
2. Work through them one tool call at a time.
3. When the task is done, call attempt_completion with a short description of the result. Do not end with a question or an offer of further help.
4. If something essential is unclear, ask with ask_followup_question rather than guessing.`;
}

/** The system prompt and environment details (SPEC T2a), built from their sections. */
export function createPromptBuilder(options: PromptOptions): PromptBuilder {
  const shell = options.shell ?? process.env["SHELL"] ?? "/bin/sh";
  const now = options.now ?? (() => new Date());
  return {
    async systemPrompt({ mode, protocol, mcpSection }) {
      const rules = await loadRules({
        workspace: options.workspace,
        ...(options.globalRulesDir ? { globalRulesDir: options.globalRulesDir } : {}),
        ...(options.claudeUserDir ? { claudeUserDir: options.claudeUserDir } : {}),
        ...options.ruleScope,
      });
      const extra = (await options.extraSections?.()) ?? [];
      const sections = [
        roleSection(),
        toolUseSection(protocol, mode, options.toolExecutor.promptDescriptions(mode)),
        mcpSection,
        editingSection(),
        modesSection(mode),
        systemInfoSection(options.workspace, shell),
        rulesSection(rules),
        ...extra,
        objectiveSection(),
      ];
      return sections.filter((section) => section.trim().length > 0).join("\n\n====\n\n");
    },
    environmentDetails: (details) => environmentDetails({ ...details, workspace: options.workspace, now: now() }),
  };
}
