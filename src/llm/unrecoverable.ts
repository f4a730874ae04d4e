/**
 * Errors that sending the same request again cannot fix: a server that
 * refuses connections (after the automatic retries), a rejected key (401),
 * a key without access (403), an unknown model or address (404). The user
 * gets one message saying what is wrong and what to change, never "Retry?".
 */
import type { ProviderError } from "./errors.js";

interface Address {
  code: string;
  address?: string;
  port?: number;
}

/** The socket error under the SDK's "Connection error." (fetch keeps it a few causes down). */
function socketError(error: unknown): Address | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth += 1) {
    const record = current as Record<string, unknown>;
    if (typeof record["code"] === "string" && /^E[A-Z]+$/.test(record["code"])) {
      const result: Address = { code: record["code"] };
      if (typeof record["address"] === "string") result.address = record["address"];
      if (typeof record["port"] === "number") result.port = record["port"];
      if (typeof record["hostname"] === "string" && result.address === undefined) result.address = record["hostname"];
      return result;
    }
    current = record["cause"];
  }
  return undefined;
}

/** fetch refuses some ports outright ("bad port", e.g. 9 or 6000): no retry can help. */
function blockedPort(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth += 1) {
    const record = current as Record<string, unknown>;
    if (record["message"] === "bad port") return true;
    current = record["cause"];
  }
  return false;
}

const unreachableCodes: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** A message for an error retrying cannot fix, or undefined when a retry may help. */
export function unrecoverableReason(error: ProviderError, baseUrl?: string): string | undefined {
  if (error.kind === "network") {
    const socket = socketError(error.cause);
    const reason = socket === undefined ? (blockedPort(error.cause) ? "this port is blocked for HTTP by Node's fetch" : undefined) : unreachableCodes[socket.code];
    if (reason === undefined) return undefined;
    const where = baseUrl ?? (socket?.address === undefined ? "the model server" : `${socket.address}${socket.port === undefined ? "" : `:${socket.port}`}`);
    return `Cannot reach ${where}: ${reason}. Check the base URL (--base-url, CAIRN_BASE_URL or "baseUrl" in the config) and that the server is running.`;
  }
  if (error.status === 401 || (error.kind === "auth" && error.status === undefined)) {
    return `${error.message} (The key is not sent again until you change it; nothing to retry.)`;
  }
  if (error.status === 403) {
    return `${error.message.replace(/ To fix:.*$/, "")} The key works but has no access to this model or endpoint: use a key with access, or choose another model (--model).`;
  }
  if (error.status === 404) {
    return `${error.message}. The model or the address was not found: check the model id (--model; cairn config shows the one in use) and that the base URL ends where the API starts (e.g. …/v1 for OpenAI-compatible servers).`;
  }
  return undefined;
}
