import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readJsonEvents, type JsonMessage } from "../../ui/headless/json-events-reader.js";

export const cairnBin = fileURLToPath(new URL("../../../bin/cairn", import.meta.url));

/**
 * Where every test sandbox of this checkout keeps cairn's compiled code (src/launch/launch.ts, CAIRN_COMPILE_CACHE):
 * a folder only this user can write (whoever can write a code cache runs code in cairn), else none.
 */
const sharedCompileCache = ((): string | undefined => {
  const folder = join(tmpdir(), `cairn-test-compile-cache-${createHash("sha1").update(cairnBin).digest("hex").slice(0, 12)}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stats = statSync(folder);
    return stats.uid === process.getuid?.() && (stats.mode & 0o022) === 0 ? folder : undefined;
  } catch {
    return undefined;
  }
})();

export interface Sandbox {
  root: string;
  workspace: string;
  dataDir: string;
  configDir: string;
  /** Claude Code's user folder of this sandbox (`CLAUDE_CONFIG_DIR`), not created until a test writes to it. */
  claudeUserDir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/** A temporary workspace, data folder and config folder; nothing outside them is written. */
export async function makeSandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "cairn-e2e-"));
  const workspace = join(root, "workspace");
  const dataDir = join(root, "data");
  const configDir = join(root, "config");
  await mkdir(workspace, { recursive: true });
  await mkdir(join(configDir, "cairn"), { recursive: true });
  // Fast retries so failure tests take milliseconds, as a user could configure them; the sandbox off in the
  // user's config (each run says so in one line on stderr: withoutSandboxNotice), so that tests may look outside
  // the workspace; the sandbox's own tests and the journeys run with it on (src/cli/sandbox-command.test.ts).
  await writeFile(join(configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandbox: "off" }));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith("CAIRN_") || name.endsWith("_API_KEY") || name === "OPENAI_BASE_URL") delete env[name];
  }
  env["CAIRN_HOME"] = dataDir;
  env["XDG_CONFIG_HOME"] = configDir;
  // Claude Code's user settings (~/.claude/settings.json, whose hooks cairn runs) are the sandbox's too.
  env["CLAUDE_CONFIG_DIR"] = join(root, "claude");
  env["NO_COLOR"] = "1";
  // No language servers (a tsserver per task that touches a .ts file costs seconds of CPU): the tests of
  // diagnostics after edits (src/lsp/, the journey "A type error fixed in the next turn") run with them.
  env["CAIRN_LSP"] = "off";
  // One compiled-code cache for every sandbox of this checkout's test run: a start with a warm cache costs
  // about 0.17 s of CPU less, and the suite starts bin/cairn a thousand times (the launcher's own tests use
  // the data folder's cache: src/launch/launcher.test.ts).
  if (sharedCompileCache !== undefined) env["CAIRN_COMPILE_CACHE"] = sharedCompileCache;
  // A process that was just killed may still have a git child finishing in the data folder.
  return { root, workspace, dataDir, configDir, claudeUserDir: join(root, "claude"), env, cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }) };
}

/** stderr without the one line a run with the sandbox off (or unavailable) prints. */
export function withoutSandboxNotice(stderr: string): string {
  return stderr.replace(/^cairn: the sandbox (is off|cannot run here)[^\n]*\n/m, "");
}

export interface CliRun {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  /** Resolves with the exit status (or 128 + signal number). */
  exit: Promise<number>;
  /** Parsed JSON lines of stdout so far. */
  events(): Array<Record<string, unknown>>;
  /** The `--json` messages so far, each folded from its snapshot and delta lines (docs/json-events.md). */
  messages(): JsonMessage[];
  /** Resolves when stdout (or `stream`: text mode prints all but the answer on stderr) matches. */
  waitForOutput(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
}

export function startCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string; keepStdinOpen?: boolean }): CliRun {
  const child = spawn(process.execPath, [cairnBin, ...args], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  const run: CliRun = {
    child,
    stdout: "",
    stderr: "",
    exit: new Promise((resolve) => {
      child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGKILL" ? 137 : 128)));
    }),
    // A process killed mid-write leaves its last line torn: only whole lines count.
    events: () =>
      run.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    messages: () => readJsonEvents(run.stdout).messages,
    waitForOutput: (pattern, stream = "stdout") =>
      new Promise((resolve, reject) => {
        const source = stream === "stdout" ? child.stdout : child.stderr;
        const text = (): string => (stream === "stdout" ? run.stdout : run.stderr);
        const check = (): void => {
          if (pattern.test(text())) {
            source?.off("data", check);
            resolve();
          }
        };
        source?.on("data", check);
        child.on("exit", () => (pattern.test(text()) ? resolve() : reject(new Error(`exited before ${stream} matched ${String(pattern)}:\n${run.stdout}\n${run.stderr}`))));
        check();
      }),
  };
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stdout?.on("data", (data: string) => {
    run.stdout += data;
  });
  child.stderr?.on("data", (data: string) => {
    run.stderr += data;
  });
  if (options.keepStdinOpen === true) return run;
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  else child.stdin?.end();
  return run;
}

export async function runCli(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string },
): Promise<{ status: number; stdout: string; stderr: string; events: Array<Record<string, unknown>>; messages: JsonMessage[] }> {
  const run = startCli(args, options);
  const status = await run.exit;
  return { status, stdout: run.stdout, stderr: run.stderr, events: run.events(), messages: run.messages() };
}
