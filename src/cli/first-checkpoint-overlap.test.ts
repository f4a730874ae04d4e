import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "./test-support/cli-harness.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

/**
 * A `git` first on PATH that holds back every `git commit` (the checkpoint landing) until
 * the scripted server has logged a request, or 10 s, and notes which came first. A loop
 * that waited for the first checkpoint before asking the model would see the 10 s pass.
 */
async function gitThatWaitsForTheRequest(folder: string, requestLog: string, verdict: string): Promise<string> {
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const bin = join(folder, "bin");
  await mkdir(bin, { recursive: true });
  const script = `#!/bin/sh
for argument in "$@"; do
  if [ "$argument" = commit ]; then
    waited=0
    while [ ! -s "${requestLog}" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    if [ -s "${requestLog}" ]; then echo "request first" >> "${verdict}"; else echo "checkpoint first" >> "${verdict}"; fi
    break
  fi
done
exec "${realGit}" "$@"
`;
  await writeFile(join(bin, "git"), script);
  await chmod(join(bin, "git"), 0o755);
  return bin;
}

it("the first request goes out while the first checkpoint is still being taken, and a write waits for that checkpoint", async () => {
  const requestLog = join(cli.sandbox.root, "requests.jsonl");
  const verdict = join(cli.sandbox.root, "verdict.txt");
  await writeFile(join(cli.sandbox.workspace, "README.md"), "# project\n");
  const server = await cli.startServer(
    {
      chunkSize: 16,
      turns: [{ text: "<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }],
    },
    { logFile: requestLog },
  );
  const bin = await gitThatWaitsForTheRequest(cli.sandbox.root, requestLog, verdict);
  const started = Date.now();
  const result = await runCli(["run", "--json", "--yes", ...anthropicArgs(server), "write hello.txt"], {
    env: { ...cli.sandbox.env, PATH: `${bin}:${process.env["PATH"] ?? ""}` },
    cwd: cli.sandbox.workspace,
  });
  expect(result.status).toBe(0);
  expect((await readFile(verdict, "utf8")).split("\n")[0]).toBe("request first");
  expect(Date.now() - started).toBeLessThan(9000);
  // The write came after the initial checkpoint, so that checkpoint holds the workspace as it was before it.
  const checkpoints = result.events.filter((event) => event["say"] === "checkpoint_created").map((event) => event["text"] as string);
  expect(checkpoints).toHaveLength(2);
  const shadow = join(cli.sandbox.dataDir, "checkpoints");
  const [key] = execFileSync("ls", [shadow], { encoding: "utf8" }).split("\n");
  const files = execFileSync("git", [`--git-dir=${join(shadow, key!, ".git")}`, "ls-tree", "-r", "--name-only", checkpoints[0]!], { encoding: "utf8" });
  expect(files).toBe("README.md\n");
  expect(await readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).toBe("hello\n");
});
