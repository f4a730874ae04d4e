import { appendFile } from "node:fs/promises";
import { join } from "node:path";

const quote = (value: string): string => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/**
 * A new shadow repository's settings, appended to its config in one go rather than one
 * `git config` process per key: spawning is the dominant cost of a checkpoint
 * (bench/task.bench.ts).
 */
export async function appendShadowSettings(gitDir: string, defaultExcludesFile: string): Promise<void> {
  const settings = [
    "[core]",
    "\tbare = false",
    `\texcludesFile = ${quote(defaultExcludesFile)}`,
    // An empty hooks folder: hooks from templates or the user's setup never run here.
    `\thooksPath = ${quote(join(gitDir, "cairn-hooks"))}`,
    "\tautocrlf = false",
    "\tquotePath = false",
    "[commit]",
    "\tgpgSign = false",
    "[user]",
    "\tname = cairn",
    "\temail = cairn@localhost",
  ];
  await appendFile(join(gitDir, "config"), `${settings.join("\n")}\n`);
}
