/**
 * Where `cairn attach` finds the server and its token (docs/server.md): with
 * `--server URL`, the token is `CAIRN_SERVER_TOKEN` or the URL's `?token=`;
 * without it, `<data dir>/server.json` (`{url, token, pid}`), which `cairn
 * serve` writes when it starts. The file is read again at each reconnection,
 * so a server started again (on a new token) is found again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface ServerAddress {
  /** The server's origin and base path, without the token: `http://127.0.0.1:4517`. */
  url: string;
  token: string;
}

/** Why no server could be named: the message tells the user what to do. */
export class NoServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoServerError";
  }
}

/** Splits `http://host:port/?token=T` into the address and its token (`CAIRN_SERVER_TOKEN` wins over the URL's). */
export function addressFromUrl(raw: string, environmentToken: string | undefined): ServerAddress {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new NoServerError(`--server ${raw} is not a URL; give the address cairn serve printed, e.g. http://127.0.0.1:4517/?token=...`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new NoServerError(`--server ${raw}: only http:// and https:// servers can be attached to`);
  const token = environmentToken !== undefined && environmentToken !== "" ? environmentToken : (parsed.searchParams.get("token") ?? "");
  if (token === "") {
    throw new NoServerError(`--server ${parsed.origin} has no token: set CAIRN_SERVER_TOKEN, or give the whole address cairn serve printed (…/?token=...)`);
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  return { url: `${parsed.origin}${path}`, token };
}

interface ServerFile {
  url: string;
  token: string;
  pid?: number;
}

function isServerFile(value: unknown): value is ServerFile {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record["url"] === "string" && typeof record["token"] === "string" && (record["pid"] === undefined || typeof record["pid"] === "number");
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const startOne = "Start one with `cairn serve` (in another terminal, or in the background), or name a server with --server URL.";

/** The server `cairn serve` wrote down in `dataDir`; a missing file or a server that is gone is a NoServerError. */
export function addressFromDataDir(dataDir: string): ServerAddress {
  const file = join(dataDir, "server.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new NoServerError(`No cairn server is running for ${dataDir} (there is no ${file}). ${startOne}`);
    throw new NoServerError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isServerFile(parsed)) throw new NoServerError(`${file} does not say where the server is ({url, token, pid} expected). ${startOne}`);
  if (parsed.pid !== undefined && !processRuns(parsed.pid)) {
    throw new NoServerError(`The cairn server of ${dataDir} has stopped (process ${parsed.pid}, named in ${file}, is gone). ${startOne}`);
  }
  return addressFromUrl(parsed.url, parsed.token);
}

/** How to find the server: given once (`--server`), or read from the data folder at every (re)connection. */
export function serverAddressSource(options: { server?: string; dataDir: string; env?: NodeJS.ProcessEnv }): () => ServerAddress {
  const env = options.env ?? process.env;
  if (options.server !== undefined) {
    const address = addressFromUrl(options.server, env["CAIRN_SERVER_TOKEN"]);
    return () => address;
  }
  return () => addressFromDataDir(options.dataDir);
}
