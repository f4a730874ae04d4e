import { execFile } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "./main.js";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../bin/cairn", import.meta.url));

// A data folder of this file's own: starts write their code cache there, never in ~/.cairn.
let dataDir = "";
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "cairn-main-test-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});
const cairn = (args: string[]) => run(process.execPath, [bin, ...args], { env: { ...process.env, CAIRN_HOME: dataDir } });

describe("bin/cairn", () => {
  it("prints the package version", async () => {
    const { stdout } = await cairn(["--version"]);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("prints help naming the program", async () => {
    const { stdout } = await cairn(["--help"]);
    expect(stdout).toContain("Usage: cairn");
  });

  it("keeps the compiled CLI in CAIRN_HOME/compile-cache, a cache for `run` and one for the rest, taken by the next start", async () => {
    const home = await mkdtemp(join(tmpdir(), "cairn-compile-cache-"));
    try {
      const cache = join(home, "compile-cache");
      const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home, XDG_CONFIG_HOME: join(home, "config") };
      delete env["NODE_DISABLE_COMPILE_CACHE"];
      await run(process.execPath, [bin, "--version"], { env });
      expect(existsSync(cache)).toBe(false); // --version loads nothing
      await run(process.execPath, [bin, "--help"], { env });
      const cacheFiles = (): string[] =>
        readdirSync(cache)
          .filter((name) => name.startsWith("bundle-"))
          .sort();
      expect(cacheFiles()).toEqual([expect.stringMatching(/^bundle-main\..*\.cache$/)]);

      const workspace = join(home, "workspace");
      await mkdir(workspace);
      const scenario = join(home, "scenario.json");
      await writeFile(scenario, JSON.stringify({ turns: [{ text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }] }));
      const runTask = () => run(process.execPath, [bin, "run", "--cwd", workspace, "--provider", "mock", "--scenario", scenario, "--yes", "--json", "--no-checkpoints", "go"], { env });
      const first = await runTask();
      expect(first.stdout).toContain('"status":"completed"');
      const runCache = cacheFiles().find((name) => name.startsWith("bundle-run-"));
      expect(runCache).toBeDefined();
      const written = statSync(join(cache, runCache!));
      expect(written.size).toBeGreaterThan(1000);
      const second = await runTask();
      expect(second.stdout).toContain('"status":"completed"');
      // Taken, not written again: a rejected cache is replaced through a new file.
      expect(statSync(join(cache, runCache!)).ino).toBe(written.ino);

      const other = join(home, "off");
      await run(process.execPath, [bin, "--help"], { env: { ...env, CAIRN_HOME: other, NODE_DISABLE_COMPILE_CACHE: "1" } });
      expect(existsSync(join(other, "compile-cache"))).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe("a subcommand builds only its own part of the command tree", () => {
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
      expect(
        alone.options.map((option) => option.flags),
        name,
      ).toEqual(whole.options.map((option) => option.flags));
      expect(
        alone.commands.map((each) => each.name()),
        name,
      ).toEqual(whole.commands.map((each) => each.name()));
    }
    expect([...union].sort()).toEqual([...full].sort());
    expect(names("fix the failing test")).toEqual(full); // a task for the terminal UI: the whole tree
  });

  it("cairn run --help and cairn help run both describe run", async () => {
    for (const args of [
      ["run", "--help"],
      ["help", "run"],
    ]) {
      const { stdout } = await cairn(args);
      expect(stdout, args.join(" ")).toContain("Usage: cairn run [options] [task...]");
    }
  });
});
