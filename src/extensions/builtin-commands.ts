/** Slash commands cairn brings itself that turn into a task for the model (as Cline's /newrule does). */
export interface BuiltinPromptCommand {
  name: string;
  description: string;
  argumentHint?: string;
  expand(argumentText: string): string;
}

export const newRuleCommand: BuiltinPromptCommand = {
  name: "newrule",
  description: "Write a rule file (.clinerules/) from what you say or from this conversation",
  argumentHint: "[what the rule should say]",
  expand: (argumentText) => {
    const about = argumentText.trim();
    return [
      "Create a new rule file with the new_rule tool.",
      about === "" ? "Base it on this conversation: the conventions, preferences and project facts the user made clear, so future tasks follow them." : `The rule should capture: ${about}`,
      'Keep it short and specific, in Markdown, with a clear file name (for example .clinerules/testing.md). If it applies only to some files, start it with front matter `paths: ["glob"]`.',
      "Then finish with attempt_completion.",
    ].join("\n\n");
  },
};

export const builtinPromptCommands: readonly BuiltinPromptCommand[] = [newRuleCommand];

export function expandBuiltinPromptCommand(text: string): { task: string; command: BuiltinPromptCommand } | undefined {
  const match = /^\/([^\s]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const command = builtinPromptCommands.find((candidate) => candidate.name === match?.[1]);
  if (!match || !command) return undefined;
  return { task: command.expand(match[2] ?? ""), command };
}
