import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NoServerError, addressFromDataDir, addressFromUrl, serverAddressSource } from "./server-address.js";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "cairn-attach-address-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("where cairn attach finds the server", () => {
  it("without a server.json, says that no server runs and how to start one", () => {
    expect(() => addressFromDataDir(dataDir)).toThrow(NoServerError);
    expect(() => addressFromDataDir(dataDir)).toThrow(/No cairn server is running for .*server\.json.*Start one with `cairn serve`.*--server URL/);
  });

  it("reads the address and token cairn serve wrote down, and reads them again at each connection (a restarted server has a new token)", async () => {
    await writeFile(join(dataDir, "server.json"), JSON.stringify({ url: "http://127.0.0.1:4517/?token=first", token: "first", pid: process.pid }));
    const source = serverAddressSource({ dataDir, env: {} });
    expect(source()).toEqual({ url: "http://127.0.0.1:4517", token: "first" });
    await writeFile(join(dataDir, "server.json"), JSON.stringify({ url: "http://127.0.0.1:4518", token: "second", pid: process.pid }));
    expect(source()).toEqual({ url: "http://127.0.0.1:4518", token: "second" });
  });

  it("says the server has stopped when the process server.json names is gone", async () => {
    await writeFile(join(dataDir, "server.json"), JSON.stringify({ url: "http://127.0.0.1:4517", token: "t", pid: 2 ** 22 + 12345 }));
    expect(() => addressFromDataDir(dataDir)).toThrow(/has stopped \(process \d+, named in .*server\.json, is gone\)\. Start one with `cairn serve`/);
  });

  it("with --server, takes the token from CAIRN_SERVER_TOKEN or the address's ?token=, and asks for one when neither has it", () => {
    expect(addressFromUrl("http://127.0.0.1:4517/?token=abc", undefined)).toEqual({ url: "http://127.0.0.1:4517", token: "abc" });
    expect(addressFromUrl("http://127.0.0.1:4517/?token=abc", "from-env")).toEqual({ url: "http://127.0.0.1:4517", token: "from-env" });
    expect(() => addressFromUrl("http://127.0.0.1:4517", undefined)).toThrow(/has no token: set CAIRN_SERVER_TOKEN/);
    expect(() => addressFromUrl("ftp://host", "t")).toThrow(/only http:\/\/ and https:\/\//);
    expect(serverAddressSource({ dataDir, server: "https://box.local:9000/?token=x", env: {} })()).toEqual({ url: "https://box.local:9000", token: "x" });
  });
});
