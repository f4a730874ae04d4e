import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolUseBlock } from "../parser/types.js";
import { PermissionRules, rulesFromBlock } from "../security/permission-rules.js";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { createRecordingContext } from "../tools/test-support/recording-context.js";
import { createBrowserActionTool } from "./browser-action-tool.js";
import { BrowserSession, defaultChromiumPath } from "./browser-session.js";

const hasChromium = existsSync(defaultChromiumPath);
if (!hasChromium) console.warn(`browser_action tests skipped: the chromium package is not installed (${defaultChromiumPath})`);

const page = `<!doctype html><html><body style="margin:0;height:3000px">
<button id="b" style="position:absolute;left:0;top:0;width:200px;height:100px" onclick="console.log('clicked the button');document.title='clicked'">Press</button>
<input id="i" style="position:absolute;left:0;top:150px;width:200px;height:40px" oninput="console.log('typed:' + this.value)">
<script>console.log('page loaded'); window.addEventListener('scroll', () => console.log('scrolled to ' + Math.round(window.scrollY)));</script>
</body></html>`;

let server: Server;
let url: string;
let workspace: string;
let session: BrowserSession;

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "cairn-browser-"));
  session = new BrowserSession();
});
afterEach(async () => {
  await session.close();
  await rm(workspace, { recursive: true, force: true });
});

function tools(options: { supportsImages?: boolean; allowNetwork?: boolean } = {}) {
  const executor = createToolExecutor({ workspace, yes: true, allowOutsideWrites: false, protocol: "xml" });
  executor.registerTool(createBrowserActionTool({ session, supportsImages: options.supportsImages ?? true, allowNetwork: () => options.allowNetwork ?? true }));
  return executor;
}

let counter = 0;
const action = (params: Record<string, string>) => ({ type: "tool_use", id: `b${(counter += 1)}`, name: "browser_action", params, partial: false }) as ToolUseBlock;
const textOf = (content: unknown): string => JSON.stringify(content);

describe.skipIf(!hasChromium)("browser_action on a local page", () => {
  it("launch, click at coordinates, type, scroll, close: screenshots as images, console logs with each", { timeout: 120_000 }, async () => {
    const browser = tools();
    const launched = await browser.executeTool(action({ action: "launch", url }), createRecordingContext());
    expect(launched.status).toBe("success");
    expect(textOf(launched.content)).toContain("page loaded");
    const image = Array.isArray(launched.content) ? launched.content.find((part) => part.type === "image") : undefined;
    expect(image).toMatchObject({ type: "image", mediaType: "image/png" });
    expect(
      Buffer.from(image?.type === "image" ? image.data : "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");

    const clicked = await browser.executeTool(action({ action: "click", coordinate: "100,50" }), createRecordingContext());
    expect(textOf(clicked.content)).toContain("clicked the button");
    expect(textOf(clicked.content)).not.toContain("page loaded"); // only what this action caused

    await browser.executeTool(action({ action: "click", coordinate: "100,170" }), createRecordingContext());
    const typed = await browser.executeTool(action({ action: "type", text: "hi" }), createRecordingContext());
    expect(textOf(typed.content)).toContain("typed:hi");

    const scrolled = await browser.executeTool(action({ action: "scroll_down" }), createRecordingContext());
    expect(textOf(scrolled.content)).toMatch(/scrolled to [1-9]\d*/);

    const closed = await browser.executeTool(action({ action: "close" }), createRecordingContext());
    expect(closed.status).toBe("success");
    expect(session.isOpen).toBe(false);
    const afterClose = await browser.executeTool(action({ action: "click", coordinate: "1,1" }), createRecordingContext());
    expect(textOf(afterClose.content)).toContain("not open");
  });

  it("no image for a model without image input; non-loopback pages refused when the sandbox forbids network; bad input is a mistake", { timeout: 120_000 }, async () => {
    const textOnly = tools({ supportsImages: false });
    const launched = await textOnly.executeTool(action({ action: "launch", url }), createRecordingContext());
    expect(textOf(launched.content)).toContain("cannot read images");
    expect(Array.isArray(launched.content) && launched.content.some((part) => part.type === "image")).toBe(false);
    await session.close();

    const offline = tools({ allowNetwork: false });
    const refused = await offline.executeTool(action({ action: "launch", url: "https://example.com/" }), createRecordingContext());
    expect(refused.status).toBe("error");
    expect(textOf(refused.content)).toContain("forbids network");
    expect(session.isOpen).toBe(false);
    const bad = await offline.executeTool(action({ action: "click", coordinate: "left" }), createRecordingContext());
    expect(bad.status).toBe("mistake");
  });
});

describe.skipIf(!hasChromium)("browser_action: only http(s) pages, and the WebFetch rules on every request", () => {
  /** Two hosts on this machine for the rules to tell apart: 127.0.0.1 (allowed) and localhost (denied). */
  let other: Server;
  let otherPort = 0;
  const seen: string[] = [];

  beforeAll(async () => {
    other = createServer((request, response) => {
      seen.push(`${request.headers.host ?? ""}${request.url ?? ""}`);
      const here = `http://127.0.0.1:${otherPort}`;
      const denied = `http://localhost:${otherPort}`;
      if (request.url === "/redirect") {
        response.writeHead(302, { location: `${denied}/secret-after-redirect` });
        response.end();
        return;
      }
      if (request.url === "/secure-redirect") {
        response.writeHead(302, { location: `https://localhost:${otherPort}/over-tls` });
        response.end();
        return;
      }
      if (request.url === "/hop") {
        response.writeHead(302, { location: `${here}/redirect` });
        response.end();
        return;
      }
      response.writeHead(200, { "content-type": "text/html" });
      response.end(`<!doctype html><html><body><p>page ${request.url ?? ""}</p><img src="${denied}/tracker.png"><script>fetch("${denied}/beacon").catch(() => console.log("beacon failed"));</script></body></html>`);
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherPort = (other.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => other.close(resolve));
  });

  function ruled(deny: string[]) {
    const executor = createToolExecutor({ workspace, yes: true, allowOutsideWrites: false, protocol: "xml", rules: new PermissionRules(rulesFromBlock({ deny }, "test"), workspace) });
    executor.registerTool(createBrowserActionTool({ session, supportsImages: true, allowNetwork: () => true }));
    return executor;
  }

  it("refuses file:, data:, javascript:, chrome:, about: and view-source: addresses without opening anything, even with --yes", { timeout: 60_000 }, async () => {
    await writeFile(join(workspace, ".env"), "SECRET=canary\n");
    const browser = tools();
    for (const address of [`file://${join(workspace, ".env")}`, "data:text/html,<h1>hi</h1>", "javascript:alert(1)", "chrome://settings", "about:config", `view-source:${url}`]) {
      const outcome = await browser.executeTool(action({ action: "launch", url: address }), createRecordingContext());
      expect(outcome.status, address).toBe("error");
      expect(textOf(outcome.content), address).toContain("only http and https");
      expect(session.isOpen).toBe(false);
    }
  });

  it("a WebFetch deny rule refuses the launch address, and the ask names the address", { timeout: 60_000 }, async () => {
    const context = createRecordingContext();
    const outcome = await ruled(["WebFetch(domain:localhost)"]).executeTool(action({ action: "launch", url: `http://localhost:${otherPort}/` }), context);
    expect(outcome.status).toBe("error");
    expect(textOf(outcome.content)).toContain("WebFetch(domain:localhost)");
    expect(session.isOpen).toBe(false);
    expect(context.says.map((say) => say.text).join("\n")).toContain(`http://localhost:${otherPort}/`);
    expect(seen.filter((entry) => entry.startsWith("localhost"))).toEqual([]);
  });

  it("requests and redirects of an allowed page to a denied domain are blocked, and the console says so", { timeout: 120_000 }, async () => {
    seen.length = 0;
    const browser = ruled(["WebFetch(domain:localhost)"]);
    const launched = await browser.executeTool(action({ action: "launch", url: `http://127.0.0.1:${otherPort}/start` }), createRecordingContext());
    expect(launched.status).toBe("success");
    const redirected = await browser.executeTool(action({ action: "launch", url: `http://127.0.0.1:${otherPort}/hop` }), createRecordingContext());
    expect(textOf(redirected.content)).toContain(`[cairn] blocked http://localhost:${otherPort}/secret-after-redirect`);
    expect(textOf(launched.content)).toContain(`[cairn] blocked http://localhost:${otherPort}/tracker.png`);
    // https goes through the proxy as a tunnel (CONNECT): the host is checked before it is opened.
    const secure = await browser.executeTool(action({ action: "launch", url: `http://127.0.0.1:${otherPort}/secure-redirect` }), createRecordingContext());
    expect(textOf(secure.content)).toContain(`[cairn] blocked https://localhost:${otherPort}/`);
    // The server on the denied host never got a request: not the image, not the script's fetch, not the redirect's target.
    expect(seen.filter((entry) => entry.startsWith("localhost"))).toEqual([]);
    expect(seen).toContain(`127.0.0.1:${otherPort}/redirect`);
  });
});
