import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";

const cli = useCliFixture();

describe("cairn demo (headless)", () => {
  it("fixes the sample bug through the real loop over HTTP: read, search, read, edit, test, complete", async () => {
    const result = await runCli(["demo", "--json", "--fast"], { env: { ...cli.sandbox.env, TMPDIR: cli.sandbox.root }, cwd: cli.sandbox.workspace });
    expect(withoutSandboxNotice(result.stderr)).toBe("");
    expect(result.status).toBe(0);
    // One card per call: a command's card comes again when it ends (with its exit status), under the same id.
    const tools = result.messages.filter((message) => (message.say === "tool" || message.say === "command") && !message.partial).map((message) => message.meta?.["tool"] ?? message.say);
    expect(tools).toEqual(["read_file", "search_files", "read_file", "replace_in_file", "execute_command"]);
    const output = result.events
      .filter((event) => event["say"] === "command_output")
      .map((event) => String(event["text"]))
      .join("\n");
    expect(output).toMatch(/# pass 4/);
    expect(result.events.some((event) => event["say"] === "completion_result")).toBe(true);
    const copies = (await readdir(cli.sandbox.root)).filter((name) => name.startsWith("cairn-demo-"));
    expect(copies).toHaveLength(1);
    const fixed = await readFile(join(cli.sandbox.root, copies[0]!, "demo-project", "src", "stats.js"), "utf8");
    expect(fixed).toContain("for (let index = 0; index < numbers.length; index++)");
  });
});
