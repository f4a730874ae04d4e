import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { Command } from "commander";
import { registerMockLlmCommand } from "./mock-llm-command.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "cairn-mock-llm-"));
  folders.push(folder);
  return folder;
}

describe("cairn mock-llm", () => {
  it("prints the listening address first, serves the scenario, logs requests and stops on SIGTERM", async () => {
    const folder = temporaryFolder();
    const scenarioFile = join(folder, "scenario.json");
    const logFile = join(folder, "requests.jsonl");
    writeFileSync(scenarioFile, JSON.stringify({ turns: [{ text: "hello from the script", chunkSize: 100 }] }));
    const entry = new URL("./test-support/mock-llm-entry.ts", import.meta.url).pathname;
    const tsx = new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url).pathname;
    const child = spawn(process.execPath, [tsx, entry, "mock-llm", "--scenario", scenarioFile, "--log", logFile], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const firstLine = await new Promise<string>((resolve) => {
      createInterface({ input: child.stdout }).once("line", resolve);
    });
    expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = firstLine.slice("listening on ".length);
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(await response.text()).toContain("hello from the script");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(JSON.parse(readFileSync(logFile, "utf8").trim())).toMatchObject({ index: 0, body: { model: "m" } });
  });

  it("explains what is wrong with a bad scenario file", async () => {
    const folder = temporaryFolder();
    const scenarioFile = join(folder, "scenario.json");
    writeFileSync(scenarioFile, JSON.stringify({ turns: [{ chunkSize: 0 }] }));
    const program = new Command("cairn").exitOverride();
    registerMockLlmCommand(program);
    await expect(program.parseAsync(["mock-llm", "--scenario", scenarioFile], { from: "user" })).rejects.toThrow(/turns\[0\]\.chunkSize/);
    await expect(program.parseAsync(["mock-llm", "--scenario", join(folder, "missing.json")], { from: "user" })).rejects.toThrow(/cannot read scenario file/);
  });
});
