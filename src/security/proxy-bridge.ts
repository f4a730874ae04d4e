/**
 * The bridge that brings cairn's network proxy into a sandbox without a
 * network (#30): a small Node program run as the sandbox's command. Inside the
 * command's own network namespace it listens on 127.0.0.1:PORT, forwards each
 * connection to the proxy's unix socket (bound into the sandbox), then runs the
 * real command with the proxy variables pointing at it, and exits as it does.
 * The program is written once into cairn's sandbox folder (visible, read-only,
 * in every sandbox).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The port the bridge listens on inside the command's network namespace (its own loopback: no clash with the host). */
export const bridgePort = 3128;

const bridgeSource = `"use strict";
// cairn's network bridge (src/security/proxy-bridge.ts): 127.0.0.1:PORT -> the proxy's unix socket, then the command.
const net = require("node:net");
const { spawn } = require("node:child_process");
const [socketPath, port, program, ...args] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.on("error", (error) => {
  process.stderr.write("cairn: the sandbox's network bridge could not start: " + error.message + "\\n");
  process.exit(125);
});
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(program, args, { stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write("cairn: " + program + ": " + error.message + "\\n");
    process.exit(127);
  });
  child.on("exit", (code, signal) => process.exit(code === null ? 128 + (require("node:os").constants.signals[signal] || 1) : code));
});
`;

/** The bridge's file in `sandboxFolder`, written when missing or different. */
const written = new Set<string>();

export function bridgeProgram(sandboxFolder: string): string {
  const file = join(sandboxFolder, "network-bridge.cjs");
  if (written.has(file)) return file;
  let current: string | undefined;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== bridgeSource) {
    mkdirSync(sandboxFolder, { recursive: true, mode: 0o700 });
    writeFileSync(file, bridgeSource, { mode: 0o644 });
  }
  written.add(file);
  return file;
}

/** The variables that send a command's traffic through the bridge; loopback itself stays direct (the command's own servers). */
export function proxyEnvironment(): Record<string, string> {
  const address = `http://127.0.0.1:${bridgePort}`;
  const direct = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: address,
    HTTPS_PROXY: address,
    ALL_PROXY: address,
    NO_PROXY: direct,
    http_proxy: address,
    https_proxy: address,
    all_proxy: address,
    no_proxy: direct,
  };
}
