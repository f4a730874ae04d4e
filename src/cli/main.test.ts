import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("issue 18: keeps compiled code in the data folder where Node has a compile cache (22 and later), and writes nothing on Node 20", async () => {
    const home = await mkdtemp(join(tmpdir(), "cairn-compile-cache-"));
    try {
      const cache = join(home, "compile-cache");
      const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home };
      delete env["NODE_DISABLE_COMPILE_CACHE"];
      await run(process.execPath, [bin, "--version"], { env });
      expect(existsSync(cache)).toBe(false); // --version loads nothing
      await run(process.execPath, [bin, "--help"], { env });
      const nodeHasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";
      if (!nodeHasCache) {
        expect(existsSync(cache), `Node ${process.version} has no compile cache`).toBe(false);
        return;
      }
      expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
      const other = join(home, "off");
      await run(process.execPath, [bin, "--help"], { env: { ...env, CAIRN_HOME: other, NODE_DISABLE_COMPILE_CACHE: "1" } });
      expect(existsSync(join(other, "compile-cache"))).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
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
