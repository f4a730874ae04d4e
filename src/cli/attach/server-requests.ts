/**
 * Requests to `cairn serve` (docs/server.md) over node:http and node:https:
 * every request carries `Authorization: Bearer TOKEN`; an error answer's
 * `{"error": ...}` becomes the error's message.
 */
import { request as httpRequest } from "node:http";
import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ServerAddress } from "./server-address.js";

const clientName = `cairn attach ${process.pid}`;

/** An answer with a status of 400 or more. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ServerError";
  }
}

/** Opens a request to `path` of the server (`/api/...`); the caller writes the body and ends it. */
export function openRequest(address: ServerAddress, method: string, path: string, headers: Record<string, string>, onResponse: (response: IncomingMessage) => void): ClientRequest {
  const url = new URL(`${address.url}${path}`);
  // The server names the client in `answered` events (`X-Cairn-Client`), so other clients can say who answered.
  const options: RequestOptions = { method, headers: { authorization: `Bearer ${address.token}`, "x-cairn-client": clientName, ...headers } };
  return url.protocol === "https:" ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
}

async function readBody(response: IncomingMessage): Promise<string> {
  response.setEncoding("utf8");
  let text = "";
  for await (const chunk of response) text += chunk as string;
  return text;
}

/** What an error answer says, for the user. */
export function errorText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // not JSON: the text itself
  }
  const text = body.trim().slice(0, 200);
  return text === "" ? `the server answered ${status}` : `the server answered ${status}: ${text}`;
}

/** Sends a JSON request and resolves with the parsed answer (undefined for an empty one). */
export function requestJson(address: ServerAddress, method: string, path: string, body?: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = openRequest(address, method, path, { accept: "application/json", ...(payload === undefined ? {} : { "content-type": "application/json" }) }, (response) => {
      readBody(response).then((text) => {
        const status = response.statusCode ?? 0;
        if (status >= 400) {
          reject(new ServerError(status, errorText(status, text)));
          return;
        }
        if (text.trim() === "") {
          resolve(undefined);
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch {
          resolve(text);
        }
      }, reject);
    });
    request.on("error", reject);
    request.end(payload);
  });
}
