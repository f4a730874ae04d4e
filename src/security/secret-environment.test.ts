/** cairn's own process keeps its keys where no other process can read them. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const module = fileURLToPath(new URL("./secret-environment.ts", import.meta.url));
const script = `
import { readFileSync } from "node:fs";
const { withdrawSecrets, environmentWithSecrets } = await import(${JSON.stringify(module)});
const wiped = withdrawSecrets();
const environ = readFileSync("/proc/self/environ", "latin1");
const cmdline = readFileSync("/proc/self/cmdline", "latin1");
console.log(JSON.stringify({ wiped, environ, cmdline, inProcessEnv: process.env.ANTHROPIC_API_KEY ?? null, kept: environmentWithSecrets().ANTHROPIC_API_KEY, token: environmentWithSecrets().GITHUB_TOKEN, path: process.env.PATH !== undefined }));
`;

describe.runIf(process.platform === "linux")("keys out of reach of other processes", () => {
  it("the key is neither in /proc/<pid>/environ nor in process.env, nor a --api-key argument in /proc/<pid>/cmdline, yet cairn still has it", () => {
    const key = "sk-ant-canary-environ-4b1d";
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, "--", "--api-key", key], {
      env: { PATH: process.env["PATH"] ?? "", ANTHROPIC_API_KEY: key, GITHUB_TOKEN: "canary-github-token-77" },
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { wiped: boolean; environ: string; cmdline: string; inProcessEnv: string | null; kept: string; token: string; path: boolean };
    expect(seen.wiped).toBe(true);
    expect(seen.environ).not.toContain(key);
    expect(seen.environ).not.toContain("canary-github-token-77");
    expect(seen.environ).toContain("ANTHROPIC_API_KEY=");
    expect(seen.cmdline).not.toContain(key);
    expect(seen.inProcessEnv).toBeNull();
    expect(seen.kept).toBe(key);
    expect(seen.token).toBe("canary-github-token-77");
    expect(seen.path).toBe(true);
  });
});
