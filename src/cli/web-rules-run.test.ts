/**
 * WebFetch(domain:...) rules hold for every address cairn fetches or lets the
 * browser load, redirects included, and the browser opens only http(s)
 * pages. Through the real CLI; 127.0.0.1 and localhost are the two domains
 * (the tests never leave this machine), Chromium is the system's.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultChromiumPath } from "../browser/browser-session.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";
import { startCli } from "./test-support/cli-harness.js";

const cli = useCliFixture();
const hasChromium = existsSync(defaultChromiumPath);
if (!hasChromium) console.warn(`the browser test through the CLI is skipped: the chromium package is not installed (${defaultChromiumPath})`);

const tool = (name: string, params: Record<string, string>): string =>
  `<${name}>\n${Object.entries(params)
    .map(([key, value]) => `<${key}>${value}</${key}>`)
    .join("\n")}\n</${name}>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

/** Every request the server got, as host + path. */
const seen: string[] = [];
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.headers.host ?? ""}${request.url ?? ""}`);
    if (request.url === "/redirect") {
      response.writeHead(302, { location: `http://localhost:${port}/secret-after-redirect` });
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<!doctype html><html><body><h1>page ${request.url ?? ""}</h1><img src="http://localhost:${port}/tracker.png"></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The last user message of request `index`: the result of the tool called just before. */
function resultIn(index: number): string {
  const body = cli.server!.requests[index]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  return JSON.stringify(body?.messages?.at(-1)?.content ?? "");
}

const rules = ["--allowed-tools", "WebFetch(domain:127.0.0.1)", "--disallowed-tools", "WebFetch(domain:localhost)"];

describe("WebFetch rules on every address, and a browser that opens only http(s)", () => {
  it("web_fetch: a redirect from an allowed domain to a denied one is refused, and nothing is sent to the denied domain", { timeout: 60_000 }, async () => {
    seen.length = 0;
    await cli.startServer({ turns: [{ text: tool("web_fetch", { url: `http://127.0.0.1:${port}/redirect` }) }, { text: complete }] });
    const result = await cli.run(["run", ...anthropicArgs(cli.server!), "--yes", ...rules, "fetch it"]);
    expect(result.status, result.stderr).toBe(0);
    expect(resultIn(1)).toContain("WebFetch(domain:localhost)");
    expect(resultIn(1)).toMatch(/refused/);
    expect(seen).toEqual([`127.0.0.1:${port}/redirect`]);
    expect(result.stderr).toContain(`web_fetch http://localhost:${port}/secret-after-redirect`);
  });

  it.skipIf(!hasChromium)("browser_action: file: is refused like read_file; the ask shows the address; a redirect and a resource on a denied domain are blocked", { timeout: 180_000 }, async () => {
    seen.length = 0;
    const workspace = cli.sandbox.workspace;
    await writeFile(join(workspace, ".env"), "API_SECRET=canary-browser-secret\n");
    await cli.startServer({
      turns: [
        { text: tool("read_file", { path: ".env" }) },
        { text: tool("browser_action", { action: "launch", url: `file://${join(workspace, ".env")}` }) },
        { text: tool("browser_action", { action: "launch", url: `http://127.0.0.1:${port}/redirect` }) },
        { text: tool("browser_action", { action: "launch", url: `http://127.0.0.1:${port}/page` }) },
        { text: tool("browser_action", { action: "close" }) },
        { text: complete },
      ],
    });
    const run = startCli(["run", ...anthropicArgs(cli.server!), ...rules, "look at the page"], { env: cli.sandbox.env, cwd: workspace, keepStdinOpen: true });
    // The rule allows 127.0.0.1 without asking; close asks (web fetches are not auto-approved).
    // Asks are on stderr (stdout is the answer's); the task ends when the model completes (no completion ask headless).
    await run.waitForOutput(/\? Approve ▸ browser_action close/, "stderr");
    run.child.stdin?.end("y\n");
    expect(await run.exit, run.stderr).toBe(0);

    expect(resultIn(1)).toContain("holds credentials");
    expect(resultIn(2)).toContain("only http and https");
    expect(JSON.stringify(cli.server!.requests.map((request) => request.body))).not.toContain("canary-browser-secret");
    expect(resultIn(3)).toContain(`[cairn] blocked http://localhost:${port}/secret-after-redirect`);
    expect(resultIn(4)).toContain(`[cairn] blocked http://localhost:${port}/tracker.png`);
    expect(seen.filter((entry) => entry.startsWith("localhost"))).toEqual([]);
    expect(seen).toContain(`127.0.0.1:${port}/page`);
    // What the user saw names each address.
    expect(run.stderr).toContain(`browser_action launch http://127.0.0.1:${port}/page`);
    expect(run.stderr).toMatch(/✗ browser_action.*only http and https/);
  });

  it.skipIf(!hasChromium)("browser_action: without a rule, the approval prompt names the page to open", { timeout: 120_000 }, async () => {
    await cli.startServer({ turns: [{ text: tool("browser_action", { action: "launch", url: `http://127.0.0.1:${port}/asked` }) }, { text: complete }] });
    const run = startCli(["run", ...anthropicArgs(cli.server!), "look"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace, keepStdinOpen: true });
    await run.waitForOutput(/\? Approve ▸ browser_action/, "stderr");
    run.child.stdin?.end("n\n");
    await run.exit;
    expect(run.stderr).toContain(`? Approve ▸ browser_action launch http://127.0.0.1:${port}/asked`);
  });
});
