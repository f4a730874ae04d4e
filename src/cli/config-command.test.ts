// Spawns the built CLI: run `npm run build` first (CI does).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../../bin/cairn", import.meta.url));

interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

let root: string;
let project: string;
let xdg: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-config-cli-"));
  project = join(root, "project");
  xdg = join(root, "xdg");
  await mkdir(join(project, ".cairn"), { recursive: true });
  await mkdir(join(xdg, "cairn"), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function cairn(args: string[], extraEnv: Record<string, string> = {}): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { PATH: process.env["PATH"], HOME: root, XDG_CONFIG_HOME: xdg, ...extraEnv };
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: project, env }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ status, stdout, stderr });
    });
  });
}

describe("cairn config", () => {
  const envKey = "sk-ant-api03-FAKEFAKEFAKE-env-key-QRST";
  const userKey = "sk-user-config-FAKE-0000-key-LMNO";
  const projectKey = "sk-project-FAKE-1111-key-HIJK";

  it("prints settings with sources and never the keys, in text and JSON", async () => {
    await writeFile(join(xdg, "cairn", "config.json"), JSON.stringify({ apiKey: userKey, maxMistakes: 5 }));
    await writeFile(join(project, ".cairn", "config.json"), JSON.stringify({ apiKey: projectKey, model: "claude-opus-4-5" }));

    const text = await cairn(["config"], { ANTHROPIC_API_KEY: envKey });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/apiKey\s+set, \*\*\*\*QRST\s+env ANTHROPIC_API_KEY/);
    expect(text.stdout).toMatch(new RegExp(`model\\s+claude-opus-4-5\\s+project ${join(project, ".cairn", "config.json")}`));
    expect(text.stdout).toMatch(/maxMistakes\s+5\s+user /);
    expect(text.stdout).toMatch(/provider\s+anthropic\s+default/);
    expect(text.stdout).toContain("API keys belong in the environment or the user config");

    const json = await cairn(["config", "--json"], { ANTHROPIC_API_KEY: envKey });
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.apiKey).toEqual({ set: true, masked: "****QRST", from: "ANTHROPIC_API_KEY" });
    expect(report.settings.model).toBe("claude-opus-4-5");
    expect(report.sources.model).toBe("project");
    expect(report.sources.maxMistakes).toBe("user");

    const fromUser = await cairn(["config"]);
    expect(fromUser.stdout).toMatch(/apiKey\s+set, \*\*\*\*LMNO\s+user /);

    for (const run of [text, json, fromUser]) {
      for (const key of [envKey, userKey, projectKey]) {
        expect(run.stdout).not.toContain(key);
        expect(run.stderr).not.toContain(key);
      }
    }
  });

  it("shows openai-responses and gemini with their keys masked and where they came from", async () => {
    const responses = await cairn(["config", "--provider", "openai-responses"], { OPENAI_API_KEY: "sk-responses-key-WXYZ" });
    expect(responses.status).toBe(0);
    expect(responses.stdout).toMatch(/provider\s+openai-responses\s+flag/);
    expect(responses.stdout).toMatch(/model\s+gpt-5\.4\s+default/);
    expect(responses.stdout).toMatch(/apiKey\s+set, \*\*\*\*WXYZ\s+env OPENAI_API_KEY/);
    expect(responses.stdout).not.toContain("sk-responses-key");
    const gemini = await cairn(["config", "--provider", "gemini"], { GOOGLE_API_KEY: "AIza-google-key-LMNO" });
    expect(gemini.status).toBe(0);
    expect(gemini.stdout).toMatch(/model\s+gemini-2\.5-pro\s+default/);
    expect(gemini.stdout).toMatch(/apiKey\s+set, \*\*\*\*LMNO\s+env GOOGLE_API_KEY/);
    expect(gemini.stdout).not.toContain("AIza-google-key");
  });

  it("a missing key prints the settings, then names what to set and exits 2", async () => {
    const result = await cairn(["config"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain("apiKey");
    expect(result.stderr).toContain("cairn: no API key for anthropic: set ANTHROPIC_API_KEY or pass --api-key");
    const openai = await cairn(["config", "--provider", "openai"]);
    expect(openai.status).toBe(2);
    expect(openai.stderr).toContain("set OPENAI_API_KEY or pass --api-key");
    const local = await cairn(["config", "--provider", "openai", "--base-url", "http://localhost:11434/v1"]);
    expect(local.status).toBe(0);
  });

  it("an invalid config file names the file and the key, with exit status 2", async () => {
    const file = join(project, ".cairn", "config.json");
    await writeFile(file, JSON.stringify({ toolProtocol: "smoke-signals" }));
    const result = await cairn(["config"], { ANTHROPIC_API_KEY: envKey });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`cairn: ${file} has invalid settings:`);
    expect(result.stderr).toContain("toolProtocol:");
  });
});
