/**
 * The lifecycle most CLI tests share: a fresh sandbox before each test, and
 * after it every scripted server (and whatever else the test registered)
 * stopped, newest first, then the sandbox removed.
 */
import { usePerTest } from "../../test-support/per-test.js";
import { startScriptedServer } from "../../llm/scripted/server.js";
import type { ScriptedServer, ScriptedServerOptions } from "../../llm/scripted/server.js";
import type { Scenario } from "../../llm/scripted/scenario.js";
import { makeSandbox, runCli } from "./cli-harness.js";
import type { Sandbox } from "./cli-harness.js";

export interface CliFixture {
  /** This test's sandbox; made before each test, removed after it. */
  readonly sandbox: Sandbox;
  /** The scripted server this test started last, if any. */
  readonly server: ScriptedServer | undefined;
  /** Runs `cairn ...args` to its end in the sandbox's workspace with the sandbox's environment. */
  run(args: string[], options?: { stdin?: string }): ReturnType<typeof runCli>;
  /** Starts a scripted server that is closed after the test. */
  startServer(scenario: Scenario, options?: Omit<ScriptedServerOptions, "scenario">): Promise<ScriptedServer>;
  /** Runs `stop` after the test, before anything registered earlier. */
  stopAfterTest(stop: () => Promise<void> | void): void;
}

/** Registers the hooks in the calling test file; `prepare` adds files to each new sandbox. */
export function useCliFixture(options: { prepare?: (sandbox: Sandbox) => Promise<void> } = {}): CliFixture {
  let latestServer: ScriptedServer | undefined;
  const stops: Array<() => Promise<void> | void> = [];
  const sandbox = usePerTest(
    "the sandbox",
    async () => {
      const made = await makeSandbox();
      await options.prepare?.(made);
      return made;
    },
    async (made) => {
      for (const stop of stops.splice(0).reverse()) await stop();
      latestServer = undefined;
      await made.cleanup();
    },
  );
  const fixture: CliFixture = {
    get sandbox(): Sandbox {
      return sandbox();
    },
    get server(): ScriptedServer | undefined {
      return latestServer;
    },
    run(args, runOptions = {}) {
      return runCli(args, { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace, ...runOptions });
    },
    async startServer(scenario, serverOptions = {}) {
      const server = await startScriptedServer({ ...serverOptions, scenario });
      stops.push(() => server.close().catch(unlessAlreadyClosed));
      latestServer = server;
      return server;
    },
    stopAfterTest(stop) {
      stops.push(stop);
    },
  };
  return fixture;
}

/** A test may close its server itself (to start the next one); closing it again is no failure. */
function unlessAlreadyClosed(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") throw error;
}

/** The flags that point cairn at a scripted server speaking the Anthropic API. */
export function anthropicArgs(server: ScriptedServer, apiKey = "test-key"): string[] {
  return ["--provider", "anthropic", "--base-url", server.url, "--api-key", apiKey];
}
