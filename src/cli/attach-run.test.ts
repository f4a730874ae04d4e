/**
 * `cairn attach` when it cannot attach: no server, a server that is gone, a
 * token missing (bin/cairn: run `npm run build` first).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

describe("cairn attach without a server to attach to", () => {
  it("says that no server runs for the data folder and how to start one (exit status 2)", async () => {
    const result = await cli.run(["attach", "01ABC"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`cairn attach: No cairn server is running for ${cli.sandbox.dataDir} (there is no ${join(cli.sandbox.dataDir, "server.json")}).`);
    expect(result.stderr).toContain("Start one with `cairn serve`");
  });

  it("says the server has stopped when the process server.json names is gone", async () => {
    await mkdir(cli.sandbox.dataDir, { recursive: true });
    await writeFile(join(cli.sandbox.dataDir, "server.json"), JSON.stringify({ url: "http://127.0.0.1:4517", token: "t", pid: 2 ** 22 + 12345 }));
    const result = await cli.run(["attach", "01ABC"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/The cairn server of .* has stopped \(process \d+, named in .*server\.json, is gone\)\. Start one with `cairn serve`/);
  });

  it("with --server and no token anywhere, asks for CAIRN_SERVER_TOKEN or the address cairn serve printed", async () => {
    const result = await cli.run(["attach", "01ABC", "--server", "http://127.0.0.1:4517"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("cairn attach: --server http://127.0.0.1:4517 has no token: set CAIRN_SERVER_TOKEN");
  });
});
