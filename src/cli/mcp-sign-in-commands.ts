/** `cairn mcp login NAME [--no-browser]` and `cairn mcp logout NAME`: OAuth sign-in for HTTP MCP servers. */
import type { Command } from "commander";
import type { McpServerConfig } from "../mcp/config.js";

export interface SignInCommandContext {
  dataDir(): string;
  /** The configured server of that name, or a usage error. */
  server(name: string): Promise<McpServerConfig>;
  fail(message: string): never;
}

function remoteUrl(server: McpServerConfig, context: SignInCommandContext): string {
  if (server.transport.type === "stdio") context.fail(`"${server.name}" is a local (stdio) server: sign-in is for servers reached over HTTP`);
  return server.transport.url;
}

async function login(context: SignInCommandContext, name: string, options: { browser: boolean; timeout: string }): Promise<void> {
  const server = await context.server(name);
  const serverUrl = remoteUrl(server, context);
  const timeoutSeconds = Number(options.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) context.fail(`--timeout expects a positive number of seconds, got "${options.timeout}"`);
  const [{ signIn }, { openInBrowser }] = await Promise.all([import("../mcp/oauth/sign-in.js"), import("./open-in-browser.js")]);
  const interrupted = new AbortController();
  const onSignal = (): void => interrupted.abort();
  process.once("SIGINT", onSignal);
  try {
    await signIn({
      dataDir: context.dataDir(),
      server: name,
      serverUrl,
      timeoutMs: timeoutSeconds * 1000,
      signal: interrupted.signal,
      openUrl: async (url) => {
        const opened = options.browser && (await openInBrowser(url.href));
        process.stderr.write(opened ? `Opened your browser to sign in to "${name}". If it did not open, visit:\n${url.href}\n` : `To sign in to "${name}", open this address in a browser:\n${url.href}\n`);
        process.stderr.write("Waiting for the sign-in to finish (Ctrl+C cancels)...\n");
      },
    });
  } catch (error) {
    context.fail(`cannot sign in to "${name}": ${(error as Error).message}`);
  } finally {
    process.removeListener("SIGINT", onSignal);
  }
  process.stdout.write(`Signed in to MCP server "${name}".\n`);
}

async function logout(context: SignInCommandContext, name: string): Promise<void> {
  const server = await context.server(name);
  const serverUrl = remoteUrl(server, context);
  const { signOut } = await import("../mcp/oauth/sign-in.js");
  const removed = await signOut({ dataDir: context.dataDir(), server: name, serverUrl });
  process.stdout.write(removed ? `Signed out of MCP server "${name}" (its tokens are deleted).\n` : `MCP server "${name}" had no sign-in to forget.\n`);
}

export function registerSignInCommands(mcp: Command, context: SignInCommandContext): void {
  mcp
    .command("login")
    .description("Sign in to an HTTP MCP server with OAuth (opens the browser)")
    .argument("<name>", "name of the server")
    .option("--no-browser", "print the sign-in address instead of opening the browser")
    .option("--timeout <seconds>", "how long to wait for the sign-in", "300")
    .action((name: string, options: { browser: boolean; timeout: string }) => login(context, name, options));

  mcp
    .command("logout")
    .description("Forget the OAuth sign-in of an HTTP MCP server")
    .argument("<name>", "name of the server")
    .action((name: string) => logout(context, name));
}
