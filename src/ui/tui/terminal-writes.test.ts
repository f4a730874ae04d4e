import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startTmux, tmuxAvailable } from "./test-support/tmux.js";

const checkout = fileURLToPath(new URL("../../..", import.meta.url));
const module = pathToFileURL(fileURLToPath(new URL("./terminal-writes.ts", import.meta.url))).href;
const lineCount = 3_000;

// Writes many numbered lines in small pieces while the writes do not wait, then restores them.
const script = `
import { readFileSync } from "node:fs";
import { writeWithoutWaiting } from ${JSON.stringify(module)};
const nonBlocking = () => (parseInt(/flags:\\s+(\\d+)/.exec(readFileSync("/proc/self/fdinfo/1", "utf8"))[1], 8) & 0o4000) !== 0 ? "yes" : "no";
const writeCalls = () => Number(/syscw: (\\d+)/.exec(readFileSync("/proc/self/io", "utf8"))[1]);
const restore = writeWithoutWaiting(process.stdout);
const during = nonBlocking();
const before = writeCalls();
for (let index = 0; index < ${lineCount}; index += 1) {
  process.stdout.write("line " + index);
  process.stdout.write(" " + "x".repeat(60) + "\\n");
}
setImmediate(async () => {
  const calls = writeCalls() - before;
  await restore();
  process.stdout.write("non-blocking while on: " + during + ", after: " + nonBlocking() + "; write calls for ${lineCount * 2} writes: " + calls + "\\n");
});
`;

const folder = mkdtempSync(join(tmpdir(), "cairn-terminal-writes-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!tmuxAvailable())("terminal writes while the UI runs", () => {
  it("reach the terminal whole and in order, gathered into few system calls, and writes wait again afterwards", async () => {
    const file = join(folder, "writes.mts");
    writeFileSync(file, script);
    const session = await startTmux({ command: [process.execPath, "--import", "tsx", file], cwd: checkout, columns: 100, rows: 20 });
    try {
      const screen = await session.waitFor(/write calls for/, { timeoutMs: 20_000 });
      const summary = /non-blocking while on: (\w+), after: (\w+); write calls for \d+ writes: (\d+)/.exec(screen);
      expect(summary?.slice(1, 3)).toEqual(["yes", "no"]);
      expect(Number(summary?.[3])).toBeLessThan(100);
      const numbers = [...(await session.captureAll()).matchAll(/^line (\d+) x{60}$/gm)].map((match) => Number(match[1]));
      // The terminal keeps the last lines of its history; those it kept are consecutive and end with the last one.
      expect(numbers.length).toBeGreaterThan(1_000);
      expect(numbers.at(-1)).toBe(lineCount - 1);
      expect(numbers.every((value, index) => index === 0 || value === numbers[index - 1]! + 1)).toBe(true);
    } finally {
      await session.kill();
    }
  });
});
