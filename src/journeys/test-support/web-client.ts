/**
 * `cairn serve` and a browser on its web UI, for tests that drive the UI as a
 * user does: the real `bin/cairn serve` (run `npm run build` first: it serves
 * dist/web) in a test sandbox, the Debian chromium through playwright-core.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startCli, type CliRun, type Sandbox } from "../../cli/test-support/cli-harness.js";

export const chromiumPath = "/usr/bin/chromium";

/** Whether browser tests can run here; says why they are skipped when not. */
export function chromiumUsable(what: string): boolean {
  if (!existsSync(chromiumPath)) console.warn(`SKIPPED ${what}: it drives ${chromiumPath}, which is not installed (apt-get install chromium)`);
  return existsSync(chromiumPath);
}

export interface RunningServer {
  run: CliRun;
  /** The URL the server printed, token included. */
  url: string;
  origin: string;
  token: string;
  /** `kill -9`: the server dies mid-task. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Starts `cairn serve` in the sandbox's workspace and waits for the URL it prints. */
export async function startServe(sandbox: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}, port?: number): Promise<RunningServer> {
  port ??= await freePort();
  const run = startCli(["serve", "--port", String(port), ...args], { env: { ...sandbox.env, ...env }, cwd: sandbox.workspace, keepStdinOpen: true });
  const printed = /(https?:\/\/[^\s/]+)\/\?token=([0-9A-Za-z_-]+)/;
  await Promise.race([run.waitForOutput(printed, "stdout"), run.waitForOutput(printed, "stderr")]);
  const match = printed.exec(run.stdout) ?? printed.exec(run.stderr);
  if (match === null) throw new Error(`cairn serve printed no URL:\n${run.stdout}\n${run.stderr}`);
  return {
    run,
    url: match[0],
    origin: match[1]!,
    token: match[2]!,
    kill: async () => {
      run.child.kill("SIGKILL");
      await run.exit;
    },
    stop: async () => {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill("SIGTERM");
        const killer = setTimeout(() => run.child.kill("SIGKILL"), 5000);
        await run.exit;
        clearTimeout(killer);
      }
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * The browser's long tasks (PerformanceObserver 'longtask') and the page's
 * errors, recorded from the first script on: `longTasks(page)` reads them.
 */
const observeLongTasks = `
  window.__cairnLongTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__cairnLongTasks.push(Math.round(entry.duration)); }).observe({ type: "longtask", buffered: true });
`;

/** A new browser context (its own cookies: another client) on the server's printed URL. */
export async function openUi(browser: Browser, server: RunningServer, options: { viewport?: { width: number; height: number }; path?: string } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.addInitScript(observeLongTasks);
  await page.goto(server.url);
  if (options.path !== undefined) await page.goto(`${server.origin}/${options.path}`);
  return { context, page, errors };
}

/** The durations (ms) of the long tasks the page has had. */
export async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate<number[]>("window.__cairnLongTasks ?? []");
}
