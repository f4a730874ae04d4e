import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startTmux, tmuxAvailable } from "./tmux.js";
import type { TmuxSession } from "./tmux.js";

const script = `
import { createInterface } from "node:readline";
console.log("CI is " + (process.env.CI ?? "unset") + ", GREETING is " + process.env.GREETING);
console.log("x".repeat(100));
const lines = createInterface({ input: process.stdin, output: process.stdout });
lines.question("Your name? ", (name) => {
  console.log(process.env.GREETING + ", " + name + "!");
  lines.close();
  process.exitCode = name === "fail" ? 3 : 0;
});
`;

let session: TmuxSession | undefined;
let folder: string | undefined;
const originalCi = process.env["CI"];
afterEach(async () => {
  if (originalCi === undefined) delete process.env["CI"];
  else process.env["CI"] = originalCi;
  await session?.kill();
  session = undefined;
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

async function startScript(): Promise<TmuxSession> {
  folder = mkdtempSync(join(tmpdir(), "cairn-tmux-test-"));
  writeFileSync(join(folder, "ask.mjs"), script);
  // CI=true here must not reach the program (Ink would draw nothing).
  process.env["CI"] = "true";
  session = await startTmux({ command: [process.execPath, "ask.mjs"], cwd: folder, env: { GREETING: "Hello" } });
  return session;
}

describe.skipIf(!tmuxAvailable())("tmux harness", () => {
  it("types into a program in an 80x30 terminal and reads its screen", async () => {
    const terminal = await startScript();
    const first = await terminal.waitFor(/Your name\?/);
    expect(first).toContain("CI is unset, GREETING is Hello");
    const rows = first.split("\n");
    expect(Math.max(...rows.map((row) => row.length))).toBe(80);
    expect(rows[2]).toBe("x".repeat(20));
    expect(await terminal.exitStatus()).toBeUndefined();
    await terminal.sendText("cairn");
    await terminal.sendKeys("Enter");
    const screen = await terminal.waitFor(/Hello, cairn!/);
    expect(screen).toContain("Your name? cairn");
    expect(await terminal.waitForExit()).toBe(0);
  });

  it("reports a failing exit status and names the missing text on time-out", async () => {
    const terminal = await startScript();
    await terminal.waitFor(/Your name\?/);
    await terminal.sendText("fail");
    await terminal.sendKeys("Enter");
    await terminal.waitFor(/Hello, fail!/);
    const failure = await terminal.waitFor(/never shown/, { timeoutMs: 300 }).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failure).toContain("The terminal never showed /never shown/ within 300 ms. Last screen:\n");
    expect(failure).toContain("Hello, fail!");
    expect(await terminal.waitForExit()).toBe(3);
  });
});
