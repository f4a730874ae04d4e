/**
 * The ACP clients an end-to-end test file starts (each against the scripted
 * server of its test), closed after each test before the server stops.
 */
import { afterEach } from "vitest";
import type { Scenario } from "../../llm/scripted/scenario.js";
import type { CliFixture } from "../../cli/test-support/cli-fixture.js";
import { startAcpClient } from "./acp-client.js";
import type { AcpTestClient, PermissionAnswer } from "./acp-client.js";

export interface AcpClients {
  /** Starts `cairn acp` against a scripted server of `scenario` (or the test's last one, `keepServer`) and initializes it. */
  start(scenario: Scenario, options?: { permissions?: PermissionAnswer[]; fs?: boolean; terminal?: boolean; keepServer?: boolean }): Promise<AcpTestClient>;
  /** A client started some other way, closed after the test too. */
  track(client: AcpTestClient): AcpTestClient;
  /** A client the test closed itself. */
  forget(client: AcpTestClient): void;
}

/** Registers the hooks in the calling test file; call after `useCliFixture()`. */
export function useAcpClients(cli: CliFixture): AcpClients {
  const clients: AcpTestClient[] = [];
  // Runs before the fixture's own afterEach (hooks after a test run newest first): clients end before their server.
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  return {
    async start(scenario, options = {}) {
      const server = options.keepServer === true && cli.server !== undefined ? cli.server : await cli.startServer(scenario);
      const client = startAcpClient({
        args: ["--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key-acp", "--model", "claude-sonnet-5-5", "--tool-protocol", "native"],
        env: cli.sandbox.env,
        cwd: cli.sandbox.workspace,
        ...options,
      });
      clients.push(client);
      await client.initialize();
      return client;
    },
    track(client) {
      clients.push(client);
      return client;
    },
    forget(client) {
      const index = clients.indexOf(client);
      if (index >= 0) clients.splice(index, 1);
    },
  };
}
