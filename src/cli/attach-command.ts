/** `cairn attach TASK [--server URL]`: the terminal UI attached to a task of `cairn serve` (docs/server.md). */
import type { Command } from "commander";
import { resolve } from "node:path";
import { defaultDataDir } from "../config/paths.js";

/** `--data-dir`, `$CAIRN_HOME`, or ~/.cairn. */
function dataDirOf(flag: string | undefined): string {
  if (flag !== undefined) return resolve(flag);
  const home = process.env["CAIRN_HOME"];
  return home === undefined || home === "" ? defaultDataDir() : resolve(home);
}

export function registerAttachCommand(program: Command): void {
  program
    .command("attach")
    .description("open the terminal UI on a task running in cairn serve; Ctrl+D detaches and leaves it running")
    .argument("<task>", "the task's id (or the start of it)")
    .option("--server <url>", "the server (default: the one cairn serve wrote in <data dir>/server.json); its token from ?token= or CAIRN_SERVER_TOKEN")
    .option("--data-dir <dir>", "the data folder whose server.json names the server (default $CAIRN_HOME or ~/.cairn)")
    .action(async (taskId: string, flags: { server?: string; dataDir?: string }) => {
      const { loadAttach } = await import("./load-interactive.js");
      const { runAttach } = await loadAttach();
      process.exitCode = await runAttach({
        taskId,
        dataDir: dataDirOf(flags.dataDir),
        ...(flags.server === undefined ? {} : { server: flags.server }),
      });
    });
}
