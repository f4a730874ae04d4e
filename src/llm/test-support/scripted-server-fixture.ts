/** One scripted LLM server per test, closed after it: the lifecycle the provider tests share. */
import { afterEach } from "vitest";
import { startScriptedServer } from "../scripted/server.js";
import type { ScriptedServer, ScriptedServerOptions } from "../scripted/server.js";
import type { Scenario } from "../scripted/scenario.js";

export interface ScriptedServerFixture {
  /** The server this test started last, if any. */
  readonly server: ScriptedServer | undefined;
  /** Starts a scripted server that is closed after the test. */
  start(scenario: Scenario, options?: Omit<ScriptedServerOptions, "scenario">): Promise<ScriptedServer>;
}

/** Registers the afterEach hook in the calling test file. */
export function useScriptedServer(): ScriptedServerFixture {
  const started: ScriptedServer[] = [];
  afterEach(async () => {
    for (const server of started.splice(0).reverse()) await server.close();
  });
  return {
    get server() {
      return started.at(-1);
    },
    async start(scenario, options = {}) {
      const server = await startScriptedServer({ ...options, scenario });
      started.push(server);
      return server;
    },
  };
}
