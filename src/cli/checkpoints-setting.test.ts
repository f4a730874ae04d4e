import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { useCliFixture } from "./test-support/cli-fixture.js";

/** A writing turn, a command that changes nothing, then completion. */
const scenario = {
  chunkSize: 9,
  turns: [
    { text: "<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" },
    { text: "<execute_command>\n<command>cat hello.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
    { text: "<attempt_completion>\n<result>Wrote hello.txt</result>\n</attempt_completion>" },
  ],
};

const cli = useCliFixture();
beforeEach(async () => {
  await cli.startServer(scenario);
});

async function run(extra: string[]) {
  const args = ["run", "--json", "--yes", "--provider", "anthropic", "--base-url", cli.server!.url, "--api-key", "test-key", ...extra, "write hello.txt"];
  const result = await cli.run(args);
  expect(result.status).toBe(0);
  expect(await readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).toBe("hello\n"); // write_to_file keeps the final newline (#11)
  const checkpoints = result.events.filter((event) => event["say"] === "checkpoint_created");
  const shadowRepositories = await readdir(join(cli.sandbox.dataDir, "checkpoints")).catch(() => []);
  return { checkpoints: checkpoints.map((event) => (event["meta"] as { reason?: string } | undefined)?.reason), shadowRepositories };
}

describe("checkpoints are taken for turns that change files, unless turned off by flag or config", () => {
  it("with checkpoints on: the initial one and the writing turn's, no turn or completion checkpoint when nothing changed", async () => {
    const { checkpoints, shadowRepositories } = await run([]);
    expect(checkpoints).toEqual(["initial", "turn"]);
    expect(shadowRepositories).toHaveLength(1);
  });

  it("--no-checkpoints: no checkpoint, and no shadow repository on disk", async () => {
    const { checkpoints, shadowRepositories } = await run(["--no-checkpoints"]);
    expect(checkpoints).toEqual([]);
    expect(shadowRepositories).toEqual([]);
  });

  it("`checkpoints: false` in the user config turns them off too", async () => {
    const configPath = join(cli.sandbox.configDir, "cairn", "config.json");
    const config = JSON.parse(await readFile(configPath, "utf8")) as Record<string, unknown>;
    await writeFile(configPath, JSON.stringify({ ...config, checkpoints: false }));
    const { checkpoints, shadowRepositories } = await run([]);
    expect(checkpoints).toEqual([]);
    expect(shadowRepositories).toEqual([]);
  });
});
