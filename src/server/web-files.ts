/**
 * The web UI's files, built at package time into `dist/web/` (index.html and
 * `assets/`): nothing is fetched from anywhere else at run time.
 */
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";

// src/server/ and dist/cli/ are both two folders below the package's root.
const webRoot = fileURLToPath(new URL("../../dist/web/", import.meta.url));

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".map": "application/json",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

const headers = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
};

export async function serveWebFile(pathname: string, response: ServerResponse): Promise<void> {
  const asset = /^\/assets\/([\w.-]+)$/.exec(pathname)?.[1];
  const file = asset !== undefined && !asset.startsWith(".") ? `assets/${asset}` : pathname === "/" || pathname === "/index.html" || !pathname.includes(".") ? "index.html" : undefined;
  if (file === undefined) return notFound(response, pathname);
  let content: Buffer;
  try {
    content = await readFile(webRoot + file);
  } catch {
    if (file !== "index.html") return notFound(response, pathname);
    response.writeHead(200, { ...headers, "content-type": types[".html"]! });
    response.end(`<!doctype html><title>cairn</title><p>The web UI is not built in ${webRoot}: run <code>npm run build</code>. The API works: <a href="/api/openapi.json">/api/openapi.json</a>.</p>`);
    return;
  }
  response.writeHead(200, { ...headers, "content-type": types[extname(file)] ?? "application/octet-stream", "cache-control": file === "index.html" ? "no-store" : "max-age=3600" });
  response.end(content);
}

function notFound(response: ServerResponse, pathname: string): void {
  response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
  response.end(`not found: ${pathname}\n`);
}
