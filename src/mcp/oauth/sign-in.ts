/**
 * `cairn mcp login NAME`: the MCP authorization flow through the SDK's `auth()`
 * (protected-resource and authorization-server discovery, dynamic client
 * registration, PKCE) with a loopback redirect, and `logout`.
 */
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CairnOAuthProvider } from "./client-provider.js";
import { CredentialStore } from "./credential-store.js";
import { startLoopbackRedirect } from "./loopback-redirect.js";

export interface SignInOptions {
  dataDir: string;
  server: string;
  serverUrl: string;
  /** Shows the authorization URL to the user: opens the browser, or prints it. */
  openUrl(url: URL): void | Promise<void>;
  timeoutMs?: number;
  signal?: AbortSignal;
  fetchFn?: FetchLike;
}

export async function signIn(options: SignInOptions): Promise<"signed in"> {
  const store = new CredentialStore(options.dataDir, options.server, options.serverUrl);
  const loopback = await startLoopbackRedirect();
  try {
    // A new sign-in starts from fresh tokens; a registration for another redirect port is made again.
    await store.update((current) => {
      const { tokens: _tokens, expiresAt: _expiresAt, signInRequired: _required, codeVerifier: _verifier, ...rest } = current;
      const registered = rest.clientInformation !== undefined && "redirect_uris" in rest.clientInformation ? rest.clientInformation.redirect_uris : [];
      if (!registered.includes(loopback.redirectUrl)) delete rest.clientInformation;
      return rest;
    });
    let authorizationUrl: URL | undefined;
    const provider = new CairnOAuthProvider(store, { redirectUrl: loopback.redirectUrl, redirect: (url) => (authorizationUrl = url) });
    const fetchOption = options.fetchFn === undefined ? {} : { fetchFn: options.fetchFn };
    const first = await auth(provider, { serverUrl: options.serverUrl, ...fetchOption });
    if (first === "AUTHORIZED") return "signed in";
    if (authorizationUrl === undefined) throw new Error("the authorization server gave no address to sign in at");
    const code = loopback.waitForCode(() => provider.lastState, { timeoutMs: options.timeoutMs ?? 300_000, ...(options.signal === undefined ? {} : { signal: options.signal }) });
    code.catch(() => undefined);
    await options.openUrl(authorizationUrl);
    const result = await auth(provider, { serverUrl: options.serverUrl, authorizationCode: await code, ...fetchOption });
    if (result !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
    return "signed in";
  } finally {
    await loopback.close();
  }
}

/** Forgets the server's tokens and registration; true when there was something to forget. */
export function signOut(options: { dataDir: string; server: string; serverUrl: string }): Promise<boolean> {
  return new CredentialStore(options.dataDir, options.server, options.serverUrl).remove();
}
