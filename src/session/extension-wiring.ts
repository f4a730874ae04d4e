/**
 * Rules, skills and the tools that come with them, for one session: the
 * task's rule scope (touched files, toggles), the skills list in the system
 * prompt, and the tools `use_skill` (when there are skills) and `new_rule`.
 */
import { enabledPlugins, pluginPlaces } from "../plugins/plugin-contributions.js";
import { join } from "node:path";
import type { ResolvedSettings } from "../config/index.js";
import { loadSkills, skillsSection } from "../extensions/skills.js";
import type { Skill } from "../extensions/skills.js";
import { createUseSkillTool } from "../extensions/use-skill-tool.js";
import { newRuleTool } from "../extensions/new-rule-tool.js";
import { createBrowserActionTool } from "../browser/browser-action-tool.js";
import { BrowserSession } from "../browser/browser-session.js";
import { TaskRules, withRulePathTracking } from "../prompt/task-rules.js";
import type { RuleScope } from "../prompt/rules.js";
import type { ToolExecutor } from "../task/contracts/tool-executor.js";
import type { ToolDefinition } from "../tools/tool-definition.js";

export interface ExtensionWiring {
  rules: TaskRules;
  skills: readonly Skill[];
  prompt: { globalRulesDir: string; claudeUserDir: string; ruleScope: RuleScope; extraSections: () => Promise<string[]> };
  tools: ToolDefinition[];
  wrapExecutor(executor: ToolExecutor): ToolExecutor;
  /** Closes the task's browser, if one was opened. */
  close(): Promise<void>;
}

export async function createExtensionWiring(settings: ResolvedSettings, model: { supportsImages: boolean }, taskId: string): Promise<ExtensionWiring> {
  const globalRulesDir = join(settings.userConfigDir, "rules");
  const { claudeUserDir } = settings;
  const rules = new TaskRules({ workspace: settings.cwd, globalRulesDir, claudeUserDir, taskId });
  const plugins = await enabledPlugins(pluginPlaces(settings));
  const skills = await loadSkills({ workspace: settings.cwd, userConfigDir: settings.userConfigDir, claudeUserDir, plugins: plugins.skills });
  const browser = new BrowserSession();
  // Pages beyond loopback only where commands may reach the network too: no sandbox, or `--sandbox-network`.
  const allowNetwork = settings.sandbox === "off" || settings.sandboxNetwork;
  const tools: ToolDefinition[] = [newRuleTool, createBrowserActionTool({ session: browser, supportsImages: model.supportsImages, allowNetwork: () => allowNetwork })];
  if (skills.length > 0) tools.push(createUseSkillTool(() => skills));
  return {
    rules,
    skills,
    prompt: { globalRulesDir, claudeUserDir, ruleScope: { touched: rules.touched, disabled: rules.disabled }, extraSections: async () => [skillsSection(skills)] },
    tools,
    wrapExecutor: (executor) => {
      const tracked = withRulePathTracking(executor, rules);
      // One browser per task: an aborted task closes it with its commands.
      return { ...tracked, abortAll: async () => void (await Promise.all([tracked.abortAll(), browser.close()])) };
    },
    close: () => browser.close(),
  };
}
