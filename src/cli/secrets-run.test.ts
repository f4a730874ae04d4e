/**
 * Secrets in cairn's environment, through the real CLI: the names the docs
 * promise are scrubbed from commands (PGPASSWORD, MYSQL_PWD ...), and a known
 * value is redacted from what the model receives, the output and the task log,
 * also inside another secret, reversed, in hex and in base64.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";
import { runCli } from "./test-support/cli-harness.js";

const cli = useCliFixture();

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

async function everythingWritten(folder: string): Promise<string> {
  let text = "";
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.parentPath.includes("checkpoints")) text += await readFile(join(entry.parentPath, entry.name), "utf8").catch(() => "");
  }
  return text;
}

describe("secrets in cairn's environment", () => {
  it("PGPASSWORD, MYSQL_PWD and other secret names never reach a command; PWD does", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: command("env | sort") }, { text: complete }] });
    const secrets = { PGPASSWORD: "canary-pg-password-1", MYSQL_PWD: "canary-mysql-pwd-22", NPMTOKEN: "canary-npm-token-333", MYSECRET: "canary-my-secret-4444" };
    const env = { ...cli.sandbox.env, ...secrets, PLAIN_SETTING: "plain-value-visible" };
    const result = await runCli(["run", ...anthropicArgs(server), "--yes", "show the environment"], { env, cwd: cli.sandbox.workspace });
    expect(result.status, result.stderr).toBe(0);
    const sent = JSON.stringify(server.requests.map((request) => request.body));
    expect(sent).toContain("PLAIN_SETTING=plain-value-visible");
    expect(sent).toMatch(/\\nPWD=\//);
    const logged = await everythingWritten(cli.sandbox.dataDir);
    for (const [name, value] of Object.entries(secrets)) {
      expect(sent).not.toContain(`${name}=`);
      expect(sent + result.stdout + result.stderr + logged).not.toContain(value);
    }
  });

  it("a known secret is redacted whole when it contains another, and reversed, in hex and in base64 too", { timeout: 60_000 }, async () => {
    const inner = "inner-canary-0042";
    const outer = `outer-${inner}-tail-secret`;
    const key = "sk-canary-provider-key-0123456789";
    const file = [
      `whole: ${outer}`,
      `reversed: ${[...key].reverse().join("")}`,
      `hex: ${Buffer.from(key).toString("hex")}`,
      `base64: ${Buffer.from(`user:${key}`).toString("base64")}`,
      `base64url: ${Buffer.from(`x${outer}`).toString("base64url")}`,
    ].join("\n");
    await writeFile(join(cli.sandbox.workspace, "leak.txt"), `${file}\n`);
    const server = await cli.startServer({ turns: [{ text: command("cat leak.txt") }, { text: complete }] });
    const env = { ...cli.sandbox.env, SERVICE_TOKEN: inner, DEPLOY_SECRET: outer };
    const result = await runCli(["run", ...anthropicArgs(server, key), "--yes", "read the file"], { env, cwd: cli.sandbox.workspace });
    expect(result.status, result.stderr).toBe(0);
    const sent = JSON.stringify(server.requests[1]?.body);
    const logged = await everythingWritten(cli.sandbox.dataDir);
    // What the user saw of the command's output is on stderr in text mode (stdout is the answer's).
    for (const where of [sent, result.stderr, logged]) {
      expect(where).toContain("whole: [REDACTED]");
      expect(where).toContain("reversed: [REDACTED]");
      expect(where).toContain("hex: [REDACTED]");
      for (const piece of ["canary-0042", "-tail-secret", "9876543210", Buffer.from(key).toString("hex").slice(10, 30), Buffer.from(`user:${key}`).toString("base64").slice(12, 30)]) {
        expect(where).not.toContain(piece);
      }
    }
  });
});
