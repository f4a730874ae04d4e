/**
 * One headless Chromium per task (playwright-core driving the system's
 * `chromium`), opened by `launch` and closed by `close` or when the task ends.
 * Each action returns a screenshot and the console messages it caused.
 *
 * Every request the page makes is checked by the request policy the tool
 * sets: through cairn's filtering proxy (the only way Chromium reaches any
 * host, redirects included) and through request interception, which also
 * stops what is not http(s) (`file:`), since the proxy only sees the network.
 */
import type { Browser, Page, Route } from "playwright-core";
import { startFilteringProxy, type FilteringProxy, type RequestPolicy } from "./filtering-proxy.js";

export type { RequestPolicy } from "./filtering-proxy.js";

export const defaultChromiumPath = "/usr/bin/chromium";
export const viewport = { width: 900, height: 600 } as const;

/** The flags that make Chromium start quietly in a container without reaching out (ECOSYSTEM.md). */
const chromiumFlags = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export type BrowserCommand = { action: "launch"; url: string } | { action: "click"; x: number; y: number } | { action: "type"; text: string } | { action: "scroll_down" } | { action: "scroll_up" } | { action: "close" };

export interface BrowserState {
  url: string;
  /** PNG, base64. */
  screenshot?: string;
  logs: string[];
}

/** What a page may load besides http(s): nothing from the disk or the browser's own pages. */
function schemeRefusal(url: string): string | undefined {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return "it is not an address";
  }
  if (protocol === "http:" || protocol === "https:" || url === "about:blank") return undefined;
  // data: and blob: resources never reach the network or the disk; a page may draw with them.
  if (protocol === "data:" || protocol === "blob:") return undefined;
  return `only http and https pages may be loaded, not ${protocol}`;
}

export class BrowserSession {
  private browser: Browser | undefined;
  private page: Page | undefined;
  private proxy: FilteringProxy | undefined;
  private logs: string[] = [];
  /** Until the tool sets one, nothing may be loaded. */
  private policy: RequestPolicy = () => Promise.resolve("no request policy is set");

  constructor(private readonly options: { executablePath?: string; launchTimeoutMs?: number } = {}) {}

  get isOpen(): boolean {
    return this.page !== undefined;
  }

  /** The address of the page now open, if any. */
  get currentUrl(): string | undefined {
    return this.page?.url();
  }

  /** Decides every request from now on (the launch address, resources, redirects, navigations). */
  setRequestPolicy(policy: RequestPolicy): void {
    this.policy = policy;
  }

  async run(command: BrowserCommand): Promise<BrowserState> {
    if (command.action === "close") {
      await this.close();
      return { url: "", logs: [] };
    }
    if (command.action === "launch") {
      await this.close();
      const page = await this.open();
      this.logs = [];
      try {
        await page.goto(command.url, { waitUntil: "domcontentloaded", timeout: 30_000 });
      } catch (error) {
        // A navigation cairn blocked fails: say which address and why.
        const blocked = this.logs.filter((line) => line.startsWith("[cairn] blocked"));
        if (blocked.length === 0) throw error;
        const reason = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
        throw new Error(`${reason}\n${blocked.join("\n")}`, { cause: error });
      }
      return this.settle(page);
    }
    const page = this.page;
    if (page === undefined) throw new Error("The browser is not open: start with the launch action.");
    this.logs = [];
    switch (command.action) {
      case "click":
        await page.mouse.click(command.x, command.y);
        break;
      case "type":
        await page.keyboard.type(command.text);
        break;
      case "scroll_down":
        await page.mouse.wheel(0, viewport.height);
        break;
      case "scroll_up":
        await page.mouse.wheel(0, -viewport.height);
        break;
    }
    return this.settle(page);
  }

  async close(): Promise<void> {
    const browser = this.browser;
    const proxy = this.proxy;
    this.browser = undefined;
    this.page = undefined;
    this.proxy = undefined;
    await browser?.close().catch(() => undefined);
    await proxy?.close().catch(() => undefined);
  }

  private blocked(url: string, reason: string): void {
    this.logs.push(`[cairn] blocked ${url}: ${reason}`);
  }

  private async open(): Promise<Page> {
    // Loaded on first use: a task that never browses never loads playwright.
    const { chromium } = await import("playwright-core");
    const check: RequestPolicy = async (url) => {
      const scheme = schemeRefusal(url);
      if (scheme !== undefined) return scheme;
      // data:, blob: and about:blank reach no host: nothing for the rules to decide.
      return /^https?:/i.test(url) ? this.policy(url) : undefined;
    };
    this.proxy = await startFilteringProxy({ policy: check, onBlocked: (url, reason) => this.blocked(url, reason) });
    this.browser = await chromium.launch({
      executablePath: this.options.executablePath ?? defaultChromiumPath,
      // The proxy for every host, loopback too (Chromium bypasses proxies for loopback unless told).
      args: [...chromiumFlags, `--proxy-server=${this.proxy.address}`, "--proxy-bypass-list=<-loopback>"],
      timeout: this.options.launchTimeoutMs ?? 60_000,
    });
    // Service workers could fetch outside what interception sees.
    const context = await this.browser.newContext({ viewport, serviceWorkers: "block" });
    await context.route("**/*", async (route: Route) => {
      const url = route.request().url();
      const reason = await check(url).catch((error: unknown) => `the request could not be checked (${String(error)})`);
      if (reason === undefined) return route.continue();
      this.blocked(url, reason);
      return route.abort("blockedbyclient");
    });
    const page = await context.newPage();
    page.on("console", (message) => this.logs.push(`[${message.type()}] ${message.text()}`));
    page.on("pageerror", (error) => this.logs.push(`[page error] ${error.message}`));
    this.page = page;
    return page;
  }

  /** Waits briefly for the page to calm down (navigation, requests), then shoots it. */
  private async settle(page: Page): Promise<BrowserState> {
    await page.waitForLoadState("networkidle", { timeout: 3_000 }).catch(() => undefined);
    const screenshot = (await page.screenshot({ type: "png" })).toString("base64");
    return { url: page.url(), screenshot, logs: [...this.logs] };
  }
}
