/**
 * browser_action (Cline's tool): launch a page, click at coordinates, type,
 * scroll, close. Every action but close answers with a screenshot (as an
 * image, for models that accept images) and the console output.
 */
import type { ImageContent, TextContent } from "../llm/types.js";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import type { ToolDefinition, ToolRuntime } from "../tools/tool-definition.js";
import type { BrowserCommand, BrowserSession, RequestPolicy } from "./browser-session.js";
import { viewport } from "./browser-session.js";

export interface BrowserToolOptions {
  session: BrowserSession;
  /** Whether the model can look at images; otherwise only the text goes back. */
  supportsImages: boolean;
  /** False when the sandbox forbids network: only loopback pages may be opened. */
  allowNetwork: () => boolean;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function parseCommand(params: Record<string, string>): BrowserCommand | string {
  const action = (params["action"] ?? "").trim();
  switch (action) {
    case "launch": {
      const url = (params["url"] ?? "").trim();
      if (url === "") return "launch needs a url (e.g. http://localhost:3000).";
      return { action, url };
    }
    case "click": {
      const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(params["coordinate"] ?? "");
      if (!match) return `click needs a coordinate "x,y" inside the ${viewport.width}x${viewport.height} viewport.`;
      return { action, x: Number(match[1]), y: Number(match[2]) };
    }
    case "type": {
      const text = params["text"];
      if (text === undefined || text === "") return "type needs the text to type.";
      return { action, text };
    }
    case "scroll_down":
    case "scroll_up":
    case "close":
      return { action };
    default:
      return `Unknown browser action "${action}": use launch, click, type, scroll_down, scroll_up or close.`;
  }
}

/**
 * Why the browser may not open `url`: only http and https pages (and
 * about:blank); never the disk (`file:`), inline code (`data:`, `javascript:`),
 * the browser's own pages (`chrome:`, `about:`, `view-source:`).
 */
function refusedUrl(url: string, allowNetwork: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL; give a full address such as http://localhost:3000.`;
  }
  if (parsed.href === "about:blank") return undefined;
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `browser_action opens only http and https pages, not ${parsed.protocol} addresses. To look at a file of the workspace, read it with read_file, or serve the folder over http on localhost.`;
  }
  if (!allowNetwork && !loopbackHosts.has(parsed.hostname)) {
    return `The sandbox forbids network access: only pages on this machine (localhost) can be opened, not ${parsed.hostname}.`;
  }
  return undefined;
}

/**
 * What every request of the page must pass (the launch address was approved
 * already): the sandbox's network, and the WebFetch rules as web_fetch follows
 * them. A rule that asks counts as a refusal here: nobody can be asked about
 * each request a page makes.
 */
function requestPolicy(runtime: ToolRuntime, allowNetwork: () => boolean): RequestPolicy {
  return async (url) => {
    const host = new URL(url).hostname;
    if (!allowNetwork() && !loopbackHosts.has(host)) return "the sandbox forbids network access (only localhost)";
    const detail = await runtime.approvals.verdict({ kind: "web", url });
    if (detail.verdict === "refuse") return detail.reason ?? "the rules refuse it";
    if (detail.explicit === true) return `${detail.reason ?? "a rule asks"}, and a page's own requests cannot be asked about`;
    return undefined;
  };
}

function describe(command: BrowserCommand): string {
  switch (command.action) {
    case "launch":
      return `Open ${command.url} in the browser`;
    case "click":
      return `Click at ${command.x},${command.y}`;
    case "type":
      return `Type "${command.text}"`;
    case "scroll_down":
      return "Scroll down";
    case "scroll_up":
      return "Scroll up";
    case "close":
      return "Close the browser";
  }
}

export function createBrowserActionTool(options: BrowserToolOptions): ToolDefinition {
  return {
    name: "browser_action",
    description:
      `Drive a headless browser (${viewport.width}x${viewport.height}) to check web pages you build or run: launch a URL first, then click at ` +
      "coordinates read from the latest screenshot, type into the focused element, scroll, and close the browser when done " +
      "(before using other tools). Each action returns a screenshot and the console output. One browser at a time.",
    parameters: [
      { name: "action", required: true, description: "launch, click, type, scroll_down, scroll_up or close.", usage: "Action to perform (e.g., launch, click, type, scroll_down, scroll_up, close)" },
      { name: "url", required: false, description: "For launch: the page to open.", usage: "URL to launch the browser at (optional)" },
      { name: "coordinate", required: false, description: "For click: x,y in the viewport.", usage: "x,y coordinates (optional)" },
      { name: "text", required: false, description: "For type: the text.", usage: "Text to type (optional)" },
    ],
    readOnly: false,
    mutates: false,
    describePartial(params) {
      return { text: `Browser: ${params["action"] ?? ""} ${params["url"] ?? params["coordinate"] ?? params["text"] ?? ""}`.trim(), meta: { tool: "browser_action" } };
    },
    async execute(params, runtime): Promise<ToolOutcome> {
      const command = parseCommand(params);
      if (typeof command === "string") return { status: "mistake", content: command };
      if (command.action === "launch") {
        const refusal = refusedUrl(command.url, options.allowNetwork());
        if (refusal !== undefined) return { status: "error", content: refusal };
      }
      // The address shown and judged: the page to open, or the page the action happens on.
      const address = command.action === "launch" ? command.url : command.action === "close" ? undefined : options.session.currentUrl;
      const text = describe(command) + (command.action !== "launch" && address !== undefined ? ` on ${address}` : "");
      const decision = await runtime.approvals.approve({
        request: address === undefined ? { kind: "web" } : { kind: "web", url: address },
        context: runtime.context,
        presentation: { key: runtime.callId, text, meta: { tool: "browser_action", ...params, ...(address === undefined ? {} : { url: address }) } },
      });
      if (!decision.approved) return decision.outcome;
      options.session.setRequestPolicy(requestPolicy(runtime, options.allowNetwork));
      let state;
      try {
        state = await options.session.run(command);
      } catch (error) {
        return { status: "error", content: `The browser action failed: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (command.action === "close") return { status: "success", content: "The browser is closed. You can use other tools now." };
      const logs = state.logs.length === 0 ? "(no new console output)" : state.logs.join("\n").slice(-4000);
      runtime.context.say("tool", `${text}: ${state.url}`, { partial: false, key: `${runtime.callId}:result`, meta: { tool: "browser_action", url: state.url, logs: state.logs } });
      const summary =
        `The browser action was run. The page is now at ${state.url}.\n\nConsole output:\n${logs}\n\n` +
        (options.supportsImages ? "The screenshot is attached." : "(This model cannot read images, so no screenshot is attached.)") +
        " Close the browser (action close) before using other tools.";
      const content: Array<TextContent | ImageContent> = [{ type: "text", text: summary }];
      if (options.supportsImages && state.screenshot !== undefined) content.push({ type: "image", mediaType: "image/png", data: state.screenshot });
      return { status: "success", content };
    },
  };
}
