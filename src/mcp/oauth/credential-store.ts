/**
 * Where an HTTP MCP server's OAuth sign-in is kept: one file per server in
 * `<data folder>/mcp-oauth/` (a 0700 folder, 0600 files), written through a
 * temporary file. Keyed by the server's name and URL, so tokens are never
 * presented to another server that took over the name.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export interface StoredCredentials {
  serverUrl: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token expires (ms since the epoch), from `expires_in` when it was saved. */
  expiresAt?: number;
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
  /** The server refused the tokens and they could not be refreshed: only a new sign-in helps. */
  signInRequired?: boolean;
}

export function credentialsFolder(dataDir: string): string {
  return join(dataDir, "mcp-oauth");
}

function fileName(server: string, serverUrl: string): string {
  const safe = server.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 60);
  const digest = createHash("sha256").update(`${server}\n${serverUrl}`).digest("hex").slice(0, 16);
  return `${safe}-${digest}.json`;
}

export class CredentialStore {
  readonly file: string;

  constructor(
    private readonly dataDir: string,
    readonly server: string,
    readonly serverUrl: string,
  ) {
    this.file = join(credentialsFolder(dataDir), fileName(server, serverUrl));
  }

  async read(): Promise<StoredCredentials | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.file, "utf8")) as StoredCredentials;
      return parsed.serverUrl === this.serverUrl ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Applies `change` to the stored record (an empty one when none) and writes it back. */
  async update(change: (current: StoredCredentials) => StoredCredentials): Promise<StoredCredentials> {
    const next = change((await this.read()) ?? { serverUrl: this.serverUrl });
    const folder = credentialsFolder(this.dataDir);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // A folder made earlier by something else keeps its mode; tighten it.
    await chmod(folder, 0o700);
    const temporary = `${this.file}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, this.file);
    return next;
  }

  async remove(): Promise<boolean> {
    const existed = (await this.read()) !== undefined;
    await rm(this.file, { force: true });
    return existed;
  }
}

export type SignInState = "signed in" | "expired" | "needs sign-in";

/** What `cairn mcp list` and `/mcp` say about a server's sign-in, from what is stored. */
export function signInState(stored: StoredCredentials | undefined, now = Date.now()): SignInState | undefined {
  if (stored === undefined) return undefined;
  if (stored.signInRequired === true) return "needs sign-in";
  if (stored.tokens === undefined) return undefined;
  const expired = stored.expiresAt !== undefined && stored.expiresAt <= now;
  // An expired access token with a refresh token is renewed on the next request.
  if (expired && stored.tokens.refresh_token === undefined) return "expired";
  return "signed in";
}

/** The stored sign-in state of a configured server; undefined for stdio servers and servers never signed in to. */
export async function storedSignInState(dataDir: string, server: { name: string; transport: { type: string; url?: string } }): Promise<SignInState | undefined> {
  if (server.transport.url === undefined) return undefined;
  return signInState(await new CredentialStore(dataDir, server.name, server.transport.url).read());
}
