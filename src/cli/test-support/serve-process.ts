/**
 * `bin/cairn serve` as a real child process for tests of its clients: started
 * on a free port in the sandbox's data folder, its address and token read from
 * what it prints, stopped (or killed) after the test.
 */
import { createServer } from "node:net";
import { startCli } from "./cli-harness.js";
import type { CliRun } from "./cli-harness.js";
import type { CliFixture } from "./cli-fixture.js";

export interface ServeProcess {
  /** `http://127.0.0.1:PORT`, without the token. */
  url: string;
  token: string;
  port: number;
  run: CliRun;
  /** Sends `signal` (SIGKILL: the server dies without a word) and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** A request to the API as a client (the web UI, a program) makes it, named `client` in `answered` events. */
  api(method: "GET" | "POST", path: string, body?: unknown, client?: string): Promise<{ status: number; body: unknown }>;
}

/** A port nothing listens on now (so a server killed and started again can take the same one). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Starts `cairn serve --port PORT ...args` in the fixture's sandbox (its data folder, its workspace as the working folder). */
export async function startServe(fixture: CliFixture, args: string[], options: { port?: number } = {}): Promise<ServeProcess> {
  const port = options.port ?? (await freePort());
  const run = startCli(["serve", "--port", String(port), ...args], { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace, keepStdinOpen: true });
  let ended = false;
  void run.exit.then(() => {
    ended = true;
  });
  const kill = async (signal: NodeJS.Signals = "SIGTERM"): Promise<void> => {
    if (ended) return;
    run.child.kill(signal);
    await run.exit;
  };
  fixture.stopAfterTest(() => kill("SIGKILL"));
  await run.waitForOutput(/cairn serve: http\S+\/\?token=\S+/);
  const printed = /cairn serve: (http\S+)\/\?token=(\S+)/.exec(run.stdout)!;
  const url = printed[1]!;
  const token = printed[2]!;
  return {
    url,
    token,
    port,
    run,
    kill,
    api: async (method, path, body, client = "test") => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "x-cairn-client": client, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // plain text (a diff)
      }
      return { status: response.status, body: parsed };
    },
  };
}
