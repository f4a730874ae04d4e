/**
 * Plugins benchmark (issue 35). Run with `npm run bench -- plugins`.
 * What a session pays to read plugins, as a ratio to what it already pays for
 * the user's own extensions (commands, skills, agent types), in the same run,
 * rounds interleaved, CPU time medians. Exits with 1 when a goal is missed.
 *
 * 1. No plugin installed: extensions + the plugin check / extensions alone (goal <= 1.3).
 * 2. One plugin installed (a command, an agent, a skill, a hook, an MCP server):
 *    extensions with its parts / extensions alone (goal <= 3).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCustomCommands } from "../src/extensions/custom-commands.js";
import { loadSkills } from "../src/extensions/skills.js";
import { loadAgentTypes } from "../src/session/subagents/agent-types.js";
import { loadEnabledPlugins } from "../src/plugins/plugin-contributions.js";
import type { PluginContributions } from "../src/plugins/plugin-contributions.js";
import { addMarketplace } from "../src/plugins/marketplace.js";
import { fetchPlugin, installFetched } from "../src/plugins/plugin-install.js";
import { makeMarketplaceRepository, marketplaceName } from "../src/plugins/test-support/plugin-marketplace.js";

const ROUNDS = 15;
const TIMES = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** CPU time (user + system, ms) of `times` runs. */
async function cpu(run: () => Promise<unknown>, times: number): Promise<number> {
  const started = process.cpuUsage();
  for (let index = 0; index < times; index += 1) await run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const root = await mkdtemp(join(tmpdir(), "cairn-bench-plugins-"));
let failed = false;
try {
  const workspace = join(root, "workspace");
  const userConfigDir = join(root, "config");
  const claudeUserDir = join(root, "claude");
  const emptyData = join(root, "data-empty");
  const pluginData = join(root, "data-plugin");
  await mkdir(join(workspace, ".claude", "commands"), { recursive: true });
  for (let index = 0; index < 10; index += 1) await writeFile(join(workspace, ".claude", "commands", `c${index}.md`), `---\ndescription: command ${index}\n---\nDo ${index}.\n`);
  await mkdir(join(workspace, ".claude", "agents"), { recursive: true });
  await writeFile(join(workspace, ".claude", "agents", "tester.md"), "---\nname: tester\ndescription: tests\n---\nTest.\n");
  const repository = await makeMarketplaceRepository(join(root, "market"));
  await addMarketplace(pluginData, repository.folder, workspace);
  await installFetched(pluginData, await fetchPlugin(pluginData, "shop", marketplaceName));

  const extensions = async (plugins?: PluginContributions): Promise<void> => {
    await loadCustomCommands({ workspace, userConfigDir, claudeUserDir, ...(plugins ? { plugins: plugins.commands } : {}) });
    await loadSkills({ workspace, userConfigDir, claudeUserDir, ...(plugins ? { plugins: plugins.skills } : {}) });
    await loadAgentTypes({ workspace, userConfigDir, claudeUserDir, ...(plugins ? { plugins: plugins.agents } : {}) });
  };
  const withPlugins = (dataDir: string) => async (): Promise<void> => extensions(await loadEnabledPlugins({ dataDir, claudeUserDir, cwd: workspace, projectTrusted: true }));
  const none: number[] = [];
  const one: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const base = await cpu(() => extensions(), TIMES);
    none.push((await cpu(withPlugins(emptyData), TIMES)) / base);
    one.push((await cpu(withPlugins(pluginData), TIMES)) / base);
  }
  const base = await cpu(() => extensions(), TIMES);
  console.log(`extensions alone: ${(base / TIMES).toFixed(2)} ms of CPU per session`);
  console.log(`no plugin installed: extensions + plugin check / extensions alone: ${median(none).toFixed(2)} (goal <= 1.3)`);
  console.log(`one plugin installed: extensions with its parts / extensions alone: ${median(one).toFixed(2)} (goal <= 3)`);
  if (median(none) > 1.3 || median(one) > 3) failed = true;
} finally {
  await rm(root, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
