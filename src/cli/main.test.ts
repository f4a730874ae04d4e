import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildProgram } from "./main.js";

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

describe("issue 18: a subcommand builds only its own part of the command tree", () => {
  const names = (command?: string): string[] => buildProgram(command).commands.map((each) => each.name());

  it("each subcommand's tree has it, with its full options, and together they make the whole tree", () => {
    const full = names();
    expect(full.length).toBeGreaterThan(15);
    const union = new Set<string>();
    for (const name of full) {
      const partial = names(name);
      expect(partial, name).toContain(name);
      for (const other of partial) union.add(other);
      const alone = buildProgram(name).commands.find((each) => each.name() === name)!;
      const whole = buildProgram().commands.find((each) => each.name() === name)!;
      expect(alone.options.map((option) => option.flags), name).toEqual(whole.options.map((option) => option.flags));
      expect(alone.commands.map((each) => each.name()), name).toEqual(whole.commands.map((each) => each.name()));
    }
    expect([...union].sort()).toEqual([...full].sort());
    expect(names("fix the failing test")).toEqual(full); // a task for the terminal UI: the whole tree
  });

  it("cairn run --help and cairn help run both describe run", async () => {
    for (const args of [["run", "--help"], ["help", "run"]]) {
      const { stdout } = await run(process.execPath, [bin, ...args]);
      expect(stdout, args.join(" ")).toContain("Usage: cairn run [options] <task...>");
    }
  });
});
