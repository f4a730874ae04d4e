/**
 * cairn's `OAuthClientProvider` for one HTTP MCP server: the SDK's client auth
 * (discovery, dynamic client registration, PKCE, refresh) reads and writes
 * through it. At sign-in (`cairn mcp login`) it has a loopback redirect URL and
 * hands the authorization URL to the browser; during a task it has none to
 * offer, so a server that wants a new sign-in ends in `SignInRequiredError`.
 */
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CredentialStore } from "./credential-store.js";

/** The server needs the user to sign in (again); the message says how. */
export class SignInRequiredError extends Error {
  override readonly name = "SignInRequiredError";
  constructor(readonly server: string) {
    super(`MCP server "${server}" needs sign-in: run \`cairn mcp login ${server}\``);
  }
}

/** Used during a task, where no browser can be opened: only a stored registration's URI. */
const placeholderRedirect = "http://127.0.0.1/callback";

export class CairnOAuthProvider implements OAuthClientProvider {
  /** The `state` sent with the last authorization request (the loopback callback checks it). */
  lastState: string | undefined;

  constructor(
    private readonly store: CredentialStore,
    private readonly interactive?: { redirectUrl: string; redirect(url: URL): void },
    private readonly cachedRedirect?: string,
  ) {}

  get redirectUrl(): string {
    return this.interactive?.redirectUrl ?? this.cachedRedirect ?? placeholderRedirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "cairn",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString("base64url");
    return this.lastState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.store.read())?.clientInformation;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    await this.store.update((current) => ({ ...current, clientInformation }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.store.read())?.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.update((current) => {
      const { signInRequired: _dropped, expiresAt: _old, ...rest } = current;
      // A refresh answer may leave the refresh token out: the old one stays valid.
      const refreshToken = tokens.refresh_token ?? current.tokens?.refresh_token;
      const merged: OAuthTokens = refreshToken === undefined ? tokens : { ...tokens, refresh_token: refreshToken };
      return { ...rest, tokens: merged, ...(tokens.expires_in === undefined ? {} : { expiresAt: Date.now() + tokens.expires_in * 1000 }) };
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.interactive === undefined) {
      // Remembered, so `cairn mcp list` and `/mcp` say so before anything connects.
      await this.store.update((current) => ({ ...current, signInRequired: true })).catch(() => undefined);
      throw new SignInRequiredError(this.store.server);
    }
    this.interactive.redirect(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.store.update((current) => ({ ...current, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.store.read())?.codeVerifier;
    if (verifier === undefined) throw new Error("no PKCE code verifier was saved for this sign-in");
    return verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    await this.store.update((current) => {
      const next = { ...current };
      if (scope === "all" || scope === "client") delete next.clientInformation;
      if (scope === "all" || scope === "tokens") {
        delete next.tokens;
        delete next.expiresAt;
      }
      if (scope === "all" || scope === "verifier") delete next.codeVerifier;
      if (scope === "all" || scope === "discovery") delete next.discoveryState;
      return next;
    });
  }

  async saveDiscoveryState(discoveryState: OAuthDiscoveryState): Promise<void> {
    await this.store.update((current) => ({ ...current, discoveryState }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.store.read())?.discoveryState;
  }
}
