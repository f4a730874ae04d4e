/** use_skill: loads one skill's instructions when the model needs them. */
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import { loadSkillBody } from "./skills.js";
import type { Skill } from "./skills.js";

export function createUseSkillTool(skills: () => readonly Skill[]): ToolDefinition {
  return {
    name: "use_skill",
    description: "Load a skill's instructions (and the list of its files) by name. The available skills are listed in the SKILLS section.",
    parameters: [{ name: "skill_name", required: true, description: "The skill's name, as listed.", usage: "skill name here" }],
    readOnly: true,
    describePartial(params) {
      return { text: params["skill_name"] ?? "", meta: { tool: "use_skill" } };
    },
    async execute(params, runtime): Promise<ToolOutcome> {
      const name = (params["skill_name"] ?? "").trim();
      const skill = skills().find((candidate) => candidate.name === name);
      if (!skill) {
        const known = skills().map((candidate) => candidate.name);
        return { status: "error", content: `There is no skill named "${name}". Available skills: ${known.join(", ") || "none"}.` };
      }
      runtime.context.say("tool", `Using the skill ${skill.name}`, { partial: false, key: runtime.callId, meta: { tool: "use_skill", skill: skill.name, folder: skill.folder } });
      try {
        return { status: "success", content: await loadSkillBody(skill) };
      } catch (error) {
        return { status: "error", content: `The skill ${skill.name} could not be read: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
