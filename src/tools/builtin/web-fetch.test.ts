import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../approval.js";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";
import { htmlToMarkdown } from "../web/html-to-markdown.js";

let server: Server;
let base: string;
let workspace: TestWorkspace;

const page = `<!doctype html><html><head><title>Docs &amp; Guide</title><style>body{color:red}</style><script>alert(1)</script></head>
<body><nav><a href="/">Home</a></nav><main><h1>Install</h1><p>Run the <code>setup</code> command &mdash; then <a href="/next">continue</a>.</p>
<ul><li>First</li><li><strong>Second</strong></li></ul><pre>line 1
  indented</pre></main><footer>footer text</footer></body></html>`;

beforeAll(async () => {
  workspace = createTestWorkspace();
  server = createServer((request, response) => {
    if (request.url === "/page") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(page);
    } else if (request.url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("x".repeat(300_000));
    } else if (request.url === "/image") {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(Buffer.from([1, 2, 3]));
    } else {
      response.writeHead(404, "Not Found");
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  workspace.cleanup();
});

async function fetchPage(url: string, answers = [{ response: "yes" as const }]) {
  const context = createRecordingContext({ answers });
  const outcome = await createTestExecutor(workspace).executeTool(toolCall("web_fetch", { url }), context);
  return { outcome, context, text: textOf(outcome.content) };
}

describe("web_fetch", () => {
  it("asks, then returns the page as readable Markdown", async () => {
    const { text, context } = await fetchPage(`${base}/page`);
    expect(context.asks[0]).toMatchObject({ type: "tool", meta: { tool: "web_fetch" } });
    expect(text).toContain("# Docs & Guide");
    expect(text).toContain("# Install");
    expect(text).toContain("Run the `setup` command — then [continue](" + base + "/next).");
    expect(text).toContain("- First\n- **Second**");
    expect(text).toContain("```\nline 1\n  indented\n```");
    expect(text).not.toContain("alert");
    expect(text).not.toContain("color:red");
    expect(text).not.toContain("footer text");
  });

  it("caps a large page with a note", async () => {
    const { text } = await fetchPage(`${base}/big`);
    expect(text).toContain("The text was cut to 100000 characters");
    expect(text.length).toBeLessThan(101_000);
  });

  it("reports HTTP errors, non-text content and bad URLs", async () => {
    expect((await fetchPage(`${base}/missing`)).text).toContain("HTTP 404");
    expect((await fetchPage(`${base}/image`)).text).toContain("image/png");
    const bad = await fetchPage("not a url", []);
    expect(bad.outcome.status).toBe("mistake");
    expect((await fetchPage("file:///etc/passwd", [])).text).toContain("only http and https");
  });

  it("runs without asking when web fetches are auto-approved", async () => {
    const context = createRecordingContext();
    const executor = createTestExecutor(workspace, { approval: { ...defaultApprovalSettings, webFetch: true } });
    const outcome = await executor.executeTool(toolCall("web_fetch", { url: `${base}/page` }), context);
    expect(outcome.status).toBe("success");
    expect(context.asks).toEqual([]);
  });

  it("converts entities and drops empty links", () => {
    expect(htmlToMarkdown("<p>a &lt;b&gt; &#65;&#x42; <a href='#top'>top</a></p>").markdown).toBe("a <b> AB top");
  });
});
