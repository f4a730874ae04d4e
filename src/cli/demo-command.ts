import type { Command } from "commander";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadInteractive } from "./load-interactive.js";

export interface DemoOptions {
  json?: boolean;
  fast?: boolean;
  plain?: boolean;
}

const sampleProject = fileURLToPath(new URL("../../samples/demo-project", import.meta.url));

/**
 * `cairn demo`: copies the sample project (a real bug, a failing test) to a
 * temporary folder, starts the scripted LLM server on loopback, and runs the
 * real loop against it over HTTP: read, search, fix, test, complete. No key,
 * no network.
 */
export async function runDemo(options: DemoOptions): Promise<number> {
  const { startScriptedServer } = await import("../llm/scripted/server.js");
  const { demoScenario } = await import("../demo/demo-scenario.js");
  const { resolveSettings } = await import("../config/index.js");
  const { createSession } = await import("../session/session.js");
  const { exitStatusFor } = await import("./run-command.js");

  const root = await mkdtemp(join(tmpdir(), "cairn-demo-"));
  const workspace = join(root, "demo-project");
  await cp(sampleProject, workspace, { recursive: true });
  const server = await startScriptedServer({ scenario: demoScenario({ fast: options.fast === true }) });
  const json = options.json === true;
  const interactive = !json && options.plain !== true && process.stdout.isTTY === true && process.stdin.isTTY === true && !process.env["CI"];
  try {
    const settings = await resolveSettings({
      flags: {
        cwd: workspace,
        provider: "anthropic",
        baseUrl: server.url,
        // The scripted server checks no key; this placeholder is not a secret.
        apiKey: "demo-placeholder-key",
        model: "claude-sonnet-5-5",
        toolProtocol: "xml",
        yes: true,
        json,
        dataDir: join(root, "data"),
      },
      env: {},
      cwd: workspace,
      userConfigDir: join(root, "config"),
    });
    // Where bubblewrap cannot run, the demo's test command is asked: the user is told why, once, as every run does.
    if (settings.sandboxNotice !== undefined) process.stderr.write(`cairn: ${settings.sandboxNotice}\n`);
    if (!json) {
      process.stdout.write(`cairn demo: a copy of the sample project is in ${workspace}\n` + `Its test suite has a failing test; cairn will find and fix the bug using a scripted model served on ${server.url}.\n\n`);
    }
    if (interactive) {
      const { runInteractive } = await loadInteractive();
      return await runInteractive({ settings, initialTask: demoTask, exitWhenDone: true });
    }
    const { HeadlessHost } = await import("../ui/headless/index.js");
    const host = new HeadlessHost({ json, stdout: process.stdout, stderr: process.stderr, stdin: undefined, taskId: "demo", onAsk: "deny", yes: true });
    const session = await createSession({ settings, host, start: { kind: "new", task: demoTask } });
    try {
      const result = await session.run();
      if (!json) {
        process.stdout.write(
          result.status === "completed" ? `\nThe demo finished: run \`node --test\` in ${workspace} to see the tests pass.\n` : `\nThe demo did not finish (${result.status}${result.error ? `: ${result.error}` : ""}).\n`,
        );
      }
      return exitStatusFor(result);
    } finally {
      host.close();
      await session.close();
    }
  } finally {
    await server.close();
  }
}

export const demoTask = "The test suite of this project fails (`node --test`). Find the bug and fix it.";

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description("watch cairn fix a bug in a sample project, on a built-in scripted model (no API key)")
    .option("--json", "print one JSON message per line")
    .option("--plain", "plain text output even on a terminal")
    .option("--fast", "stream the scripted answers without pauses")
    .action(async (options: DemoOptions) => {
      process.exitCode = await runDemo(options);
    });
}
