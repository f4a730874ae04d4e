/** `cairn commands`: the custom commands, workflows and skills this folder offers, and where each comes from. */
import { environmentWithSecrets } from "../security/secret-environment.js";
import type { Command } from "commander";

export function registerCommandsCommand(program: Command): void {
  program
    .command("commands")
    .description('list custom slash commands, Cline workflows and skills (run one with: cairn run "/name args")')
    .option("--cwd <dir>", "project folder")
    .option("--json", "print them as JSON")
    .action(async (options: { cwd?: string; json?: boolean }) => {
      const [{ resolveSettings }, { loadCustomCommands }, { loadSkills }, { builtinPromptCommands }, { enabledPlugins, pluginPlaces }] = await Promise.all([
        import("../config/index.js"),
        import("../extensions/custom-commands.js"),
        import("../extensions/skills.js"),
        import("../extensions/builtin-commands.js"),
        import("../plugins/plugin-contributions.js"),
      ]);
      const settings = await resolveSettings({ flags: {}, env: environmentWithSecrets(), cwd: options.cwd ?? process.cwd() });
      const folders = { workspace: settings.cwd, userConfigDir: settings.userConfigDir, claudeUserDir: settings.claudeUserDir };
      const plugins = await enabledPlugins(pluginPlaces(settings));
      const commands = await loadCustomCommands({ ...folders, plugins: plugins.commands });
      const skills = await loadSkills({ ...folders, plugins: plugins.skills });
      if (options.json === true) {
        const listed = commands.map(({ body: _body, ...command }) => command);
        process.stdout.write(
          `${JSON.stringify({ commands: listed, builtin: builtinPromptCommands.map((command) => ({ name: command.name, description: command.description, argumentHint: command.argumentHint })), skills }, null, 2)}\n`,
        );
        return;
      }
      for (const command of builtinPromptCommands) process.stdout.write(`/${command.name} ${command.argumentHint ?? ""}  ${command.description} (built in)\n`);
      for (const command of commands) {
        process.stdout.write(`/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ""}  ${command.description} (${command.kind}, ${command.file})\n`);
      }
      if (skills.length > 0) process.stdout.write("\nSkills (the model loads them with use_skill):\n");
      for (const skill of skills) process.stdout.write(`  ${skill.name}  ${skill.description} (${skill.folder})\n`);
    });
}
