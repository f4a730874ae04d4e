/** The OAuth side of connecting to a remote MCP server during a task or a listing. */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpServerConfig } from "../config.js";
import { CairnOAuthProvider, SignInRequiredError } from "./client-provider.js";
import { CredentialStore } from "./credential-store.js";

/**
 * The stored sign-in of a remote server, as the SDK's auth provider (it adds the
 * bearer token and refreshes it), or undefined when the user never signed in:
 * registering a client or opening a browser is for `cairn mcp login`, not a task.
 */
export async function remoteAuthProvider(config: McpServerConfig, dataDir: string | undefined): Promise<OAuthClientProvider | undefined> {
  if (config.transport.type === "stdio" || dataDir === undefined) return undefined;
  const store = new CredentialStore(dataDir, config.name, config.transport.url);
  const stored = await store.read();
  if (stored?.clientInformation === undefined) return undefined;
  const registered = "redirect_uris" in stored.clientInformation ? stored.clientInformation.redirect_uris[0] : undefined;
  return new CairnOAuthProvider(store, undefined, registered);
}

/** The server refused the request for want of a (valid) sign-in. */
export function isSignInRequired(error: unknown): boolean {
  if (error instanceof SignInRequiredError || error instanceof UnauthorizedError) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 401;
}
