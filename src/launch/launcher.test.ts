import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cairnBin, makeSandbox, runCli } from "../cli/test-support/cli-harness.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { usePerTest } from "../test-support/per-test.js";
import { contentHash, decodeCacheFile } from "./cache-file.js";
import { wrapperPrefix } from "./load-bundle.js";
import { createStackMapper } from "./readable-stack.js";

// The real bin/cairn, which loads the built bundle (npm run build) through src/launch/.
const bundle = fileURLToPath(new URL("../../dist/cli/main.cjs", import.meta.url));
const sourceFile = (relative: string): string => fileURLToPath(new URL(`../${relative}`, import.meta.url));

/** The 1-based line of the first line of `file` that contains `text`. */
function lineOf(file: string, text: string): number {
  const index = readFileSync(file, "utf8")
    .split("\n")
    .findIndex((line) => line.includes(text));
  expect(index, `${text} in ${file}`).toBeGreaterThanOrEqual(0);
  return index + 1;
}

describe("bin/cairn's code cache and stack traces", () => {
  // The data folder's own cache (the other tests share one: CAIRN_COMPILE_CACHE, cli-harness.ts).
  const sandbox = usePerTest(
    "a sandbox",
    async () => {
      const made = await makeSandbox();
      delete made.env["CAIRN_COMPILE_CACHE"];
      return made;
    },
    (made) => made.cleanup(),
  );

  it("a code cache file damaged in place at the same length: cairn still starts, heals the file, and the next start takes it", async () => {
    const { env, workspace, dataDir } = sandbox();
    expect((await runCli(["--help"], { env, cwd: workspace })).status).toBe(0);
    const cacheDir = join(dataDir, "compile-cache");
    const [name] = readdirSync(cacheDir).filter((entry) => entry.endsWith(".cache"));
    const path = join(cacheDir, name!);
    const damaged = readFileSync(path);
    for (let index = damaged.length >> 1; index < (damaged.length >> 1) + 64; index += 1) damaged[index] = damaged[index]! ^ 0xff;
    writeFileSync(path, damaged);

    // Handed to V8, such a file was a fatal error (exit 133) at every start of the command.
    const healing = await runCli(["--help"], { env, cwd: workspace });
    expect(healing.status).toBe(0);
    expect(healing.stdout).toContain("Usage: cairn");
    const healed = readFileSync(path);
    const tag = Number.parseInt(name!.split(".").at(-3)!, 16);
    expect(decodeCacheFile(healed, contentHash(readFileSync(bundle)), tag)).toBeDefined();

    // The healed cache is taken: a taken cache is not written again.
    const before = statSync(path);
    const next = await runCli(["--help"], { env, cwd: workspace });
    expect(next.status).toBe(0);
    expect(next.stdout).toBe(healing.stdout);
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readFileSync(path).equals(healed)).toBe(true);
  });

  it.skipIf(!tmuxAvailable())("a terminal closed under the terminal UI (SIGHUP) leaves the code cache for the next start, and ends cairn", async () => {
    const { workspace, dataDir, configDir, claudeUserDir } = sandbox();
    const ui = await startTmux({
      command: [process.execPath, cairnBin, "--provider", "mock"],
      cwd: workspace,
      env: { CAIRN_HOME: dataDir, XDG_CONFIG_HOME: configDir, CLAUDE_CONFIG_DIR: claudeUserDir, NO_COLOR: "1" },
    });
    try {
      // The UI itself (its status line), not the input box the launcher draws before the bundle has loaded.
      await ui.waitFor(/What should cairn do\?[\s\S]*Tab mode/);
    } finally {
      await ui.kill();
    }
    const cacheDir = join(dataDir, "compile-cache");
    const cacheFiles = (): string[] => {
      try {
        return readdirSync(cacheDir).filter((entry) => entry.startsWith("bundle-tui.") && entry.endsWith(".cache"));
      } catch {
        return [];
      }
    };
    const deadline = Date.now() + 10_000;
    while (cacheFiles().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const [name] = cacheFiles();
    expect(name, "a cache file of the terminal UI").toBeDefined();
    // No cairn is left running with this data folder.
    const running = (): string[] =>
      readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`CAIRN_HOME=${dataDir}`);
          } catch {
            return false;
          }
        });
    while (running().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running()).toEqual([]);
    const tag = Number.parseInt(name!.split(".").at(-3)!, 16);
    expect(decodeCacheFile(readFileSync(join(cacheDir, name!)), contentHash(readFileSync(bundle)), tag)).toBeDefined();
  });

  it("CAIRN_DEBUG=1 prints the trace of an error that ends a command, naming cairn's TypeScript sources and lines, with the cache and without", { timeout: 90_000 }, async () => {
    const { env, workspace } = sandbox();
    const missing = join(workspace, "no-such-scenario.json");
    const thrownAt = `${sourceFile("llm/scripted/scenario.ts")}:${lineOf(sourceFile("llm/scripted/scenario.ts"), "throw new ScenarioError(`cannot read scenario file")}:`;
    const runs = [
      { ...env, CAIRN_DEBUG: "1" }, // compiles and writes the cache
      { ...env, CAIRN_DEBUG: "1" }, // takes it
      { ...env, CAIRN_DEBUG: "1", NODE_DISABLE_COMPILE_CACHE: "1" },
    ];
    for (const runEnv of runs) {
      const result = await runCli(["mock-llm", "--scenario", missing], { env: runEnv, cwd: workspace });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`cairn: cannot read scenario file ${missing}`);
      expect(result.stderr).toContain(thrownAt);
      expect(result.stderr).toMatch(/src\/cli\/main\.ts:\d+:\d+/);
      expect(result.stderr).not.toContain("main.cjs");
    }
    // Without CAIRN_DEBUG, the one line only.
    const plain = await runCli(["mock-llm", "--scenario", missing], { env, cwd: workspace });
    expect(plain.stderr).toBe(`cairn: cannot read scenario file ${missing}: ENOENT: no such file or directory, open '${missing}'\n`);
  });
});

describe("the stack mapper of the built bundle", () => {
  it("maps a frame in dist/cli/main.cjs to the source file, line and column it was built from; other frames stay", () => {
    const generatedLine = lineOf(bundle, "function buildProgram(command)");
    const column = readFileSync(bundle, "latin1").split("\n")[generatedLine - 1]!.indexOf("buildProgram") + 1;
    const stack = ["Error: boom", `    at buildProgram (${bundle}:${generatedLine}:${column})`, "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"].join("\n");
    const mapped = createStackMapper(bundle, wrapperPrefix.length)(stack).split("\n");
    expect(mapped[1]).toMatch(new RegExp(`^    at buildProgram \\(${sourceFile("cli/main.ts")}:${lineOf(sourceFile("cli/main.ts"), "export function buildProgram(")}:\\d+\\)$`));
    expect(mapped[2]).toBe("    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)");
  });

  it("leaves a trace alone when the bundle has no map", () => {
    const stack = `Error: boom\n    at f (/nowhere/main.cjs:1:2)`;
    expect(createStackMapper("/nowhere/main.cjs")(stack)).toBe(stack);
  });
});
