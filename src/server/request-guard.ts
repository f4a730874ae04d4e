/**
 * Who may talk to the server (docs/server.md, Security): the token on every
 * request (a bearer header, or the cookie the first page load sets), a `Host`
 * the server answers to (no DNS rebinding) and no foreign `Origin` (no other
 * web page can drive it, even with the cookie).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const tokenCookie = "cairn_token";

const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];

export function newToken(): string {
  return randomBytes(32).toString("hex");
}

/** Whether an address listens on loopback only. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface GuardOptions {
  token: string;
  /** The address the server listens on (`--host`). */
  host: string;
  /** The port it listens on. */
  port: number;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export class RequestGuard {
  readonly #token: Buffer;
  readonly #hosts: Set<string>;

  constructor(private readonly options: GuardOptions) {
    this.#token = Buffer.from(options.token);
    const names = isLoopback(options.host) || options.host === "0.0.0.0" || options.host === "::" ? loopbackNames : [];
    const given = options.host.includes(":") && !options.host.startsWith("[") ? `[${options.host}]` : options.host;
    this.#hosts = new Set([...names, given].map((name) => `${name}:${options.port}`.toLowerCase()));
  }

  /** Also answers to this `Host` (a name the server is reached by beyond loopback, `--allow-host`). */
  allowHost(name: string): void {
    this.#hosts.add(`${name}:${this.options.port}`.toLowerCase());
  }

  /** Checks where a request comes from, then its token. */
  check(request: IncomingMessage, url: URL): GuardVerdict {
    const host = (request.headers.host ?? "").toLowerCase();
    if (!this.#hosts.has(host)) return { ok: false, status: 403, reason: `this server does not answer to the host "${host}"` };
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== "null" && !this.#sameOrigin(origin)) return { ok: false, status: 403, reason: `requests from ${origin} are refused` };
    if (origin === "null") return { ok: false, status: 403, reason: "requests from an opaque origin are refused" };
    if (this.#matches(this.tokenOf(request, url))) return { ok: true };
    return { ok: false, status: 401, reason: "this server needs its token: open the URL `cairn serve` printed, or send `Authorization: Bearer TOKEN`" };
  }

  /** The token a request carries: its bearer header, its `?token=`, or its cookie. */
  tokenOf(request: IncomingMessage, url: URL): string | undefined {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    return bearer ?? url.searchParams.get("token") ?? cookieValue(request.headers.cookie, tokenCookie);
  }

  #matches(token: string | undefined): boolean {
    if (token === undefined) return false;
    const given = Buffer.from(token);
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }

  #sameOrigin(origin: string): boolean {
    try {
      return this.#hosts.has(new URL(origin).host.toLowerCase());
    } catch {
      return false;
    }
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}
