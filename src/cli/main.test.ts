import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../bin/cairn", import.meta.url));

describe("bin/cairn", () => {
  it("prints the package version", async () => {
    const { stdout } = await run(process.execPath, [bin, "--version"]);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("prints help naming the program", async () => {
    const { stdout } = await run(process.execPath, [bin, "--help"]);
    expect(stdout).toContain("Usage: cairn");
  });
});
