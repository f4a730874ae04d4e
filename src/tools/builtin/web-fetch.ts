/** web_fetch: downloads a page and returns it as Markdown, size-capped. */
import { describeError } from "../file-io.js";
import { invalidParameter, success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition, ToolRuntime } from "../tool-definition.js";
import type { ToolOutcome } from "../../task/contracts/tool-executor.js";
import { htmlToMarkdown } from "../web/html-to-markdown.js";

const maximumDownloadBytes = 5 * 1024 * 1024;
const maximumResultCharacters = 100_000;
const fetchTimeoutMs = 30_000;
const maximumRedirects = 10;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const requestHeaders = { accept: "text/html, text/plain, application/json;q=0.9, */*;q=0.5", "user-agent": "cairn" };

/**
 * Fetches `url`, following redirects one at a time: each address is checked
 * before anything is sent to it (http or https only; another host is approved
 * again, so WebFetch rules and the user's approval cover every address fetched,
 * not only the first). Returns the final response, or the outcome that ends the tool.
 */
async function fetchFollowingApproved(runtime: ToolRuntime, url: URL, signal: AbortSignal): Promise<{ response: Response; address: URL } | { outcome: ToolOutcome }> {
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await runtime.options.fetch(current.href, { signal, redirect: "manual", headers: requestHeaders });
    const location = response.headers.get("location");
    if (!redirectStatuses.has(response.status) || location === null) return { response, address: current };
    await response.body?.cancel().catch(() => undefined);
    if (redirects >= maximumRedirects) return { outcome: toolError(`${url.href} redirected more than ${maximumRedirects} times; nothing was read.`) };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { outcome: toolError(`${current.href} redirected to "${location}", which is not an address; nothing was read.`) };
    }
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      return { outcome: toolError(`${current.href} redirected to ${next.href}: only http and https addresses can be fetched, so it was not followed.`) };
    }
    if (next.hostname !== current.hostname) {
      const decision = await runtime.approvals.approve({
        request: { kind: "web", url: next.href },
        context: runtime.context,
        presentation: { key: `${runtime.callId}:redirect-${redirects + 1}`, text: `Fetch ${next.href} (${current.href} redirects there)`, meta: { tool: "web_fetch", url: next.href } },
      });
      if (!decision.approved) return { outcome: decision.outcome };
    }
    current = next;
  }
}

async function readCapped(response: Response): Promise<{ bytes: Buffer; cut: boolean }> {
  const reader = response.body?.getReader();
  if (reader === undefined) return { bytes: Buffer.alloc(0), cut: false };
  const chunks: Buffer[] = [];
  let size = 0;
  while (true) {
    const next = await reader.read();
    if (next.done) return { bytes: Buffer.concat(chunks), cut: false };
    const chunk: Uint8Array = next.value as Uint8Array;
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= maximumDownloadBytes) {
      await reader.cancel();
      return { bytes: Buffer.concat(chunks).subarray(0, maximumDownloadBytes), cut: true };
    }
  }
}

export const webFetchTool: ToolDefinition = {
  name: "web_fetch",
  description: "Fetch a web page (http or https) and read it as Markdown. Long pages are cut.",
  parameters: [{ name: "url", required: true, description: "The address of the page.", usage: "https://example.com/docs" }],
  readOnly: true,
  describePartial(params) {
    return { text: `Fetch ${params["url"] ?? ""}`, meta: { tool: "web_fetch", url: params["url"] ?? "" } };
  },
  async execute(params, runtime) {
    const address = (params["url"] ?? "").trim();
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return invalidParameter({ tool: "web_fetch", parameter: "url", problem: `"${address}" is not a URL; give a full address such as https://example.com/page.` });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return invalidParameter({ tool: "web_fetch", parameter: "url", problem: "only http and https addresses can be fetched." });
    }
    const decision = await runtime.approvals.approve({
      request: { kind: "web", url: url.href },
      context: runtime.context,
      presentation: { key: runtime.callId, text: `Fetch ${url.href}`, meta: { tool: "web_fetch", url: url.href } },
    });
    if (!decision.approved) return decision.outcome;
    let response: Response;
    let fetchedFrom: URL;
    let body: { bytes: Buffer; cut: boolean };
    try {
      const signal = AbortSignal.any([runtime.context.signal, AbortSignal.timeout(fetchTimeoutMs)]);
      const fetched = await fetchFollowingApproved(runtime, url, signal);
      if ("outcome" in fetched) return fetched.outcome;
      response = fetched.response;
      fetchedFrom = fetched.address;
      body = await readCapped(response);
    } catch (error) {
      return toolError(`could not fetch ${url.href}: ${describeError(error)}`);
    }
    if (!response.ok) return toolError(`${url.href} answered HTTP ${response.status} ${response.statusText}.`);
    const type = response.headers.get("content-type") ?? "";
    const text = body.bytes.toString("utf8");
    let content: string;
    if (/html/i.test(type) || (type === "" && /<html|<body|<p\b/i.test(text.slice(0, 2000)))) {
      const converted = htmlToMarkdown(text, fetchedFrom.href);
      content = converted.title ? `# ${converted.title}\n\n${converted.markdown}` : converted.markdown;
    } else if (/^text\/|json|xml|javascript|yaml/i.test(type) || type === "") {
      content = text;
    } else {
      return toolError(`${url.href} is ${type}, not a text page; it cannot be shown.`);
    }
    const notes: string[] = [];
    if (body.cut) notes.push(`The page is larger than ${maximumDownloadBytes / 1048576} MB; only its beginning was read.`);
    if (content.length > maximumResultCharacters) {
      content = content.slice(0, maximumResultCharacters);
      notes.push(`The text was cut to ${maximumResultCharacters} characters.`);
    }
    const note = notes.length > 0 ? `\n\n[${notes.join(" ")}]` : "";
    return withApprovalFeedback(success(`Content of ${fetchedFrom.href}:\n\n${content}${note}`), decision.feedback);
  },
};
