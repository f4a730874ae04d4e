/**
 * The redirect target of a sign-in: a one-shot HTTP server on 127.0.0.1 with a
 * random port (RFC 8252's loopback redirect). It takes the first callback whose
 * `state` matches, answers the browser with a short page and closes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackRedirect {
  redirectUrl: string;
  /** The authorization code of the callback carrying `state`; rejects on an error answer, `signal` or the timeout. */
  waitForCode(expectedState: () => string | undefined, options: { timeoutMs: number; signal?: AbortSignal }): Promise<string>;
  close(): Promise<void>;
}

const page = (title: string, text: string): string => `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><h1>${title}</h1><p>${text}</p></body>`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export async function startLoopbackRedirect(): Promise<LoopbackRedirect> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  let expected: () => string | undefined = () => undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    const state = url.searchParams.get("state") ?? undefined;
    if (settle === undefined || state !== expected()) {
      response.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(page("Sign-in not expected", "This sign-in does not match the one cairn started. Run the login again."));
      return;
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error !== null || code === null) {
      const reason = error === null ? "no authorization code in the answer" : `${error}${url.searchParams.has("error_description") ? `: ${url.searchParams.get("error_description")}` : ""}`;
      response.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(page("Sign-in failed", escapeHtml(reason)));
      settle.reject(new Error(`the authorization server refused the sign-in (${reason})`));
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page("Signed in", "You can close this tab and go back to cairn."));
    settle.resolve(code);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    waitForCode: (expectedState, options) =>
      new Promise<string>((resolve, reject) => {
        expected = expectedState;
        const timer = setTimeout(() => finish(new Error(`no sign-in arrived within ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
        const onAbort = (): void => finish(new Error("the sign-in was cancelled"));
        const finish = (error: Error | undefined, code?: string): void => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          settle = undefined;
          if (error === undefined && code !== undefined) resolve(code);
          else reject(error ?? new Error("no authorization code"));
        };
        options.signal?.addEventListener("abort", onAbort, { once: true });
        settle = { resolve: (code) => finish(undefined, code), reject: (error) => finish(error) };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
