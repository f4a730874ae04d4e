/**
 * One headless Chromium per task (playwright-core driving the system's
 * `chromium`), opened by `launch` and closed by `close` or when the task ends.
 * Each action returns a screenshot and the console messages it caused.
 */
import type { Browser, Page } from "playwright-core";

export const defaultChromiumPath = "/usr/bin/chromium";
export const viewport = { width: 900, height: 600 } as const;

/** The flags that make Chromium start quietly in a container without reaching out (ECOSYSTEM.md). */
const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type BrowserCommand =
  | { action: "launch"; url: string }
  | { action: "click"; x: number; y: number }
  | { action: "type"; text: string }
  | { action: "scroll_down" }
  | { action: "scroll_up" }
  | { action: "close" };

export interface BrowserState {
  url: string;
  /** PNG, base64. */
  screenshot?: string;
  logs: string[];
}

export class BrowserSession {
  private browser: Browser | undefined;
  private page: Page | undefined;
  private logs: string[] = [];

  constructor(private readonly options: { executablePath?: string; launchTimeoutMs?: number } = {}) {}

  get isOpen(): boolean {
    return this.page !== undefined;
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
      await page.goto(command.url, { waitUntil: "domcontentloaded", timeout: 30_000 });
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
    this.browser = undefined;
    this.page = undefined;
    await browser?.close().catch(() => undefined);
  }

  private async open(): Promise<Page> {
    // Loaded on first use: a task that never browses never loads playwright.
    const { chromium } = await import("playwright-core");
    this.browser = await chromium.launch({
      executablePath: this.options.executablePath ?? defaultChromiumPath,
      args: chromiumFlags,
      timeout: this.options.launchTimeoutMs ?? 60_000,
    });
    const context = await this.browser.newContext({ viewport });
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
