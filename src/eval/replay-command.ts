import { environmentWithSecrets } from "../security/secret-environment.js";
import { writeFile } from "node:fs/promises";
import { ConfigError, resolveSettings } from "../config/index.js";
import { replayTask } from "./replay.js";

export async function runReplayCommand(taskId: string, flags: { out?: string; dataDir?: string }): Promise<number> {
  try {
    const settings = await resolveSettings({ flags: flags.dataDir ? { dataDir: flags.dataDir } : {}, env: environmentWithSecrets(), cwd: process.cwd() });
    const scenario = await replayTask({ dataDir: settings.dataDir, taskId });
    const text = `${JSON.stringify(scenario, null, 2)}\n`;
    if (flags.out === undefined || flags.out === "-") process.stdout.write(text);
    else {
      await writeFile(flags.out, text);
      process.stderr.write(`cairn: wrote ${scenario.turns.length} turns to ${flags.out}; play them with --provider mock --scenario ${flags.out} or cairn mock-llm --scenario ${flags.out}\n`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof ConfigError ? 2 : 1;
  }
}
