/**
 * `bin/cairn serve` as a test starts it: on any free port, pointed at a
 * scripted model server, stopped after the test. Gives its URL, token and a
 * client.
 */
import type { CliFixture } from "../../cli/test-support/cli-fixture.js";
import { anthropicArgs } from "../../cli/test-support/cli-fixture.js";
import { startCli, type CliRun } from "../../cli/test-support/cli-harness.js";
import type { ScriptedServer } from "../../llm/scripted/server.js";
import { apiClient, type ApiClient } from "./event-client.js";

export interface StartedServe {
  run: CliRun;
  url: string;
  token: string;
  client(name?: string): ApiClient;
}

export async function startServe(cli: CliFixture, model: ScriptedServer, extra: string[] = []): Promise<StartedServe> {
  const run = startCli(["serve", "--port", "0", ...anthropicArgs(model), "--model", "claude-sonnet-5-5", "--tool-protocol", "xml", ...extra], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
  cli.stopAfterTest(async () => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGTERM");
    await run.exit;
  });
  await run.waitForOutput(/token=\w+/);
  const [, url, token] = /(https?:\/\/\S+)\/\?token=(\S+)/.exec(run.stdout) ?? [];
  if (url === undefined || token === undefined) throw new Error(`no URL in: ${run.stdout}`);
  return { run, url, token, client: (name = "test") => apiClient(url, token, name) };
}

/** Starts a task in the sandbox's workspace and returns its id. */
export async function startTask(client: ApiClient, cwd: string, prompt = "write hello"): Promise<string> {
  const started = await client.call("POST", "/api/tasks", { prompt, cwd });
  if (started.status !== 201) throw new Error(`the task did not start: ${started.status} ${JSON.stringify(started.body)}`);
  return String(started.body["taskId"]);
}
