import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../approval.js";
import { PermissionRules, rulesFromBlock } from "../../security/permission-rules.js";
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

  describe("redirects: every address fetched is checked against the rules, not only the first", () => {
    /** A fetch that stands for the internet: each host answers from the table; every request is recorded. */
    function internet(pages: Record<string, { status: number; location?: string; body?: string }>) {
      const requested: string[] = [];
      const fake = (async (input: string | URL | Request, init?: RequestInit) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        requested.push(url);
        const page = pages[url];
        if (page === undefined) return new Response("not found", { status: 404 });
        // Like Node's fetch: redirect "follow" follows by itself; "manual" hands the 3xx back.
        if (page.location !== undefined && init?.redirect !== "manual") return fake(new URL(page.location, url).href, init);
        return new Response(page.body ?? "", { status: page.status, headers: { "content-type": "text/plain", ...(page.location === undefined ? {} : { location: page.location }) } });
      }) as typeof fetch;
      return { fetch: fake, requested };
    }

    function executor(options: { fetch: typeof fetch; allow?: string[]; deny?: string[]; yes?: boolean }) {
      const rules = new PermissionRules(rulesFromBlock({ allow: options.allow ?? [], deny: options.deny ?? [] }, "test"), workspace.root);
      return createTestExecutor(workspace, { fetch: options.fetch, rules, yes: options.yes ?? false });
    }

    it("a redirect to a denied domain is refused and never fetched, even when the first domain is allowed", async () => {
      const net = internet({
        "https://example.com/docs": { status: 302, location: "https://evilexample.com/collect?x=1" },
        "https://evilexample.com/collect?x=1": { status: 200, body: "collected" },
      });
      const context = createRecordingContext();
      const outcome = await executor({ fetch: net.fetch, allow: ["WebFetch(domain:example.com)"], deny: ["WebFetch(domain:evilexample.com)"], yes: true }).executeTool(
        toolCall("web_fetch", { url: "https://example.com/docs" }),
        context,
      );
      expect(outcome.status).toBe("error");
      expect(textOf(outcome.content)).toContain("evilexample.com");
      expect(textOf(outcome.content)).toMatch(/refused/);
      expect(net.requested).toEqual(["https://example.com/docs"]);
    });

    it("an allow rule for example.com does not let a redirect to evilexample.com through without asking", async () => {
      const net = internet({
        "https://example.com/docs": { status: 301, location: "https://evilexample.com/" },
        "https://evilexample.com/": { status: 200, body: "elsewhere" },
      });
      const context = createRecordingContext({ answers: [{ response: "no" }] });
      const outcome = await executor({ fetch: net.fetch, allow: ["WebFetch(domain:example.com)"] }).executeTool(toolCall("web_fetch", { url: "https://example.com/docs" }), context);
      expect(context.asks).toHaveLength(1);
      expect(context.asks[0]?.text).toContain("https://evilexample.com/");
      expect(outcome.status).not.toBe("success");
      expect(net.requested).toEqual(["https://example.com/docs"]);
    });

    it("a redirect within the allowed domain, or to another address once approved, is followed; a redirect to file: is refused", async () => {
      const net = internet({
        "https://example.com/a": { status: 308, location: "/b" },
        "https://example.com/b": { status: 302, location: "https://docs.example.com/c" },
        "https://docs.example.com/c": { status: 200, body: "the page" },
        "https://example.com/local": { status: 302, location: "file:///etc/passwd" },
      });
      const allowed = executor({ fetch: net.fetch, allow: ["WebFetch(domain:example.com)"] });
      const followed = await allowed.executeTool(toolCall("web_fetch", { url: "https://example.com/a" }), createRecordingContext());
      expect(textOf(followed.content)).toContain("Content of https://docs.example.com/c");
      expect(textOf(followed.content)).toContain("the page");
      const local = await allowed.executeTool(toolCall("web_fetch", { url: "https://example.com/local" }), createRecordingContext());
      expect(local.status).toBe("error");
      expect(textOf(local.content)).toContain("only http and https");
    });
  });

  it("converts entities and drops empty links", () => {
    expect(htmlToMarkdown("<p>a &lt;b&gt; &#65;&#x42; <a href='#top'>top</a></p>").markdown).toBe("a <b> AB top");
  });
});
