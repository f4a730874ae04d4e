/**
 * A real hook program for CLI tests: a Node script that appends what it got on
 * stdin to a log (outside the workspace, in the test's temporary folder) and
 * answers as told: `deny` exits 2 with a reason, a JSON text is printed as the
 * hook's answer.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Sandbox } from "./cli-harness.js";

export interface HookRecord {
  label: string;
  input: Record<string, unknown>;
}

export interface HookRecorder {
  /** The hook command line for one matcher group: `label` names it in the log. */
  command(label: string, answer?: "deny" | Record<string, unknown>): string;
  records(): Promise<HookRecord[]>;
}

const script = `import { appendFileSync } from "node:fs";
const [log, label, answer] = process.argv.slice(2);
let data = "";
process.stdin.on("data", (chunk) => (data += chunk)).on("end", () => {
  appendFileSync(log, JSON.stringify({ label, input: JSON.parse(data) }) + "\\n");
  if (answer === "deny") {
    process.stderr.write(label + " is off in tests");
    process.exit(2);
  }
  if (answer !== undefined) process.stdout.write(answer);
});
`;

const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

export async function createHookRecorder(sandbox: Sandbox): Promise<HookRecorder> {
  const file = join(sandbox.root, "record-hook.mjs");
  const log = join(sandbox.root, "hook-records.jsonl");
  await writeFile(file, script);
  return {
    command: (label, answer) => [process.execPath, file, log, label, ...(answer === undefined ? [] : [answer === "deny" ? "deny" : JSON.stringify(answer)])].map(quote).join(" "),
    records: async () =>
      (await readFile(log, "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as HookRecord),
  };
}
