import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive, killLeftovers } from "../tools/test-support/processes.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

describe("no process started by a command is left after cairn exits", () => {
  it("a background child and a setsid'd one started by execute_command are gone when cairn exits", async () => {
    const command = `sleep 300 > /dev/null 2>&1 & echo $! > ${cli.sandbox.root}/bg.pid; setsid sleep 301 > /dev/null 2>&1 & echo $! > ${cli.sandbox.root}/sid.pid; sleep 0.3`;
    const server = await cli.startServer({
      turns: [
        { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command, requires_approval: false } }] },
        { toolCalls: [{ id: "call_1", name: "attempt_completion", arguments: { result: "started a server" } }] },
      ],
    });
    const result = await cli.run([
      "run",
      "--json",
      "--yes",
      "--allow-outside-writes",
      "--tool-protocol",
      "native",
      "--provider",
      "anthropic",
      "--base-url",
      server.url,
      "--api-key",
      "k",
      "--model",
      "claude-sonnet-5-5",
      "serve",
    ]);
    expect(result.status).toBe(0);
    const pids = await Promise.all(["bg.pid", "sid.pid"].map(async (file) => Number((await readFile(join(cli.sandbox.root, file), "utf8")).trim())));
    cli.stopAfterTest(() => killLeftovers([...pids]));
    expect(pids.filter(isAlive)).toEqual([]);
  }, 30_000);
});
