/**
 * `cairn serve` with the options a team adds: HTTPS from the user's
 * certificate and key, and the fleet's queue (`--redis`) shown beside the
 * tasks.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { hasRedisServer, startTestRedis } from "../fleet/test-support/redis-server.js";
import { repositoryWith } from "../test-support/git-repository.js";
import { startServe } from "./test-support/serve-fixture.js";

const cli = useCliFixture();

describe("cairn serve over HTTPS and with a fleet", () => {
  it("serves HTTPS with the given certificate, and its cookie is Secure", async () => {
    const cert = join(cli.sandbox.root, "cert.pem");
    const key = join(cli.sandbox.root, "key.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
    const model = await cli.startServer({ turns: [] });
    const { url, token } = await startServe(cli, model, ["--tls-cert", cert, "--tls-key", key]);
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = await readFile(cert);
    const answer = await new Promise<{ status: number; cookie: string }>((resolve, reject) => {
      const outgoing = request(`${url}/?token=${token}`, { ca }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, cookie: String(response.headers["set-cookie"]) });
      });
      outgoing.on("error", reject);
      outgoing.end();
    });
    expect(answer.status).toBe(303);
    expect(answer.cookie).toMatch(/; Secure/);
  }, 60_000);

  it.runIf(hasRedisServer)(
    "with --redis, GET /api/fleet shows the queue's waiting jobs",
    async () => {
      const redis = await startTestRedis();
      cli.stopAfterTest(() => redis.stop());
      const repo = join(cli.sandbox.root, "repo");
      await repositoryWith(repo, { "README.md": "# a repository\n" });
      const added = await cli.run(["queue", "add", "--redis", redis.url, "--repo", repo, "write a file"]);
      expect(added.status, added.stderr).toBe(0);
      const model = await cli.startServer({ turns: [] });
      const serve = await startServe(cli, model, ["--redis", redis.url]);
      const fleet = await serve.client().call("GET", "/api/fleet");
      expect(fleet.status).toBe(200);
      expect(fleet.body).toMatchObject({ queue: "cairn", waiting: 1 });

      const without = await startServe(cli, model);
      expect((await without.client().call("GET", "/api/fleet")).status).toBe(404);
    },
    60_000,
  );
});
