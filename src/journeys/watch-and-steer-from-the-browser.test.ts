/**
 * Journey: watching and steering a task from the browser (docs/journeys.md).
 * The real `bin/cairn serve` (run `npm run build` first: it serves dist/web),
 * its web UI in the Debian chromium, two browser contexts as two clients
 * (one phone-sized, which also switches the task to plan and back),
 * cairn's scripted model over real HTTP; the files on disk are checked.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { say } from "./test-support/model-turns.js";
import { chromiumUsable, launchChromium, openUi, startServe } from "./test-support/web-client.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, "greeting.txt"), "Hello\n");
  },
});

let browser: Browser;
beforeAll(async () => {
  if (chromiumUsable("the browser journey")) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const explanation = "I will **update the greeting** first.\n\n- read it\n- change it\n\n";
const question = '<ask_followup_question>\n<question>Should I also write signed notes?</question>\n<options>["Yes, sign them", "No notes"]</options>\n</ask_followup_question>';

/** The answer button of the open ask, by its label. */
const askButton = (page: Page, label: string) => page.locator("section.ask button", { hasText: label }).first();

describe.skipIf(!existsSync("/usr/bin/chromium"))("journey: watching and steering a task from the browser", () => {
  it("starts a task in a folder, watches it stream, approves an edit after its diff, answers a question, sees another client's approval, and restores a checkpoint", async () => {
    const model = await cli.startServer({
      turns: [
        { text: explanation + say.edit("greeting.txt", "Hello", "Hello, world").text!, chunkSize: 8, delayMs: 15 },
        { text: question },
        { text: say.write("notes.md", "Signed: the greeting bot").text! },
        { text: say.complete("The greeting is updated and the notes are signed.").text! },
      ],
    });
    const server = await startServe(cli.sandbox, anthropicArgs(model));
    cli.stopAfterTest(() => server.stop());
    const workspace = cli.sandbox.workspace;

    // The printed URL once: the token becomes a cookie and leaves the address.
    const first = await openUi(browser, server);
    const page = first.page;
    expect(page.url()).not.toContain("token");
    await page.getByRole("link", { name: "New task" }).first().click();
    await page.locator('input[name="cwd"]').fill(workspace);
    await page.locator('textarea[name="prompt"]').fill("update the greeting");
    await page.getByRole("button", { name: "Start" }).click();

    // The answer streams in as markdown; the edit's card fills in, and its diff is shown before anything is written.
    await page.waitForURL(/#\/task\//);
    const taskId = decodeURIComponent(/#\/task\/([^/?#]+)/.exec(page.url())![1]!);
    await expect.poll(() => page.locator(".msg.text strong").first().textContent(), { timeout: 20_000 }).toBe("update the greeting");
    await page.locator("section.ask").waitFor({ timeout: 20_000 });
    expect(await page.locator("section.ask .ask-what").textContent()).toBe("Edit greeting.txt");
    expect(await page.locator('.card[data-tool="replace_in_file"] .d-add').allTextContents()).toContain("+Hello, world");
    expect(await readFile(join(workspace, "greeting.txt"), "utf8")).toBe("Hello\n");
    await askButton(page, "Yes").click();
    await expect.poll(() => readFile(join(workspace, "greeting.txt"), "utf8"), { timeout: 20_000 }).toBe("Hello, world\n");

    // A second client (a phone) opens the same task: both see the question; the first answers it.
    const second = await openUi(browser, server, { viewport: { width: 390, height: 844 }, path: `#/task/${encodeURIComponent(taskId)}` });
    for (const client of [page, second.page]) await expect.poll(() => client.locator("section.ask .ask-what").textContent(), { timeout: 20_000 }).toBe("Should I also write signed notes?");
    // Plan | Act on the phone: it fits the screen, the switch reaches the desktop (its toggle and its transcript), and back.
    const modeButton = (client: Page, name: "Plan" | "Act") => client.locator(".mode-switch").getByRole("button", { name });
    const planBox = await modeButton(second.page, "Plan").boundingBox();
    expect(planBox !== null && planBox.x >= 0 && planBox.x + planBox.width <= 390 && planBox.height >= 36).toBe(true);
    expect(await modeButton(second.page, "Act").getAttribute("aria-pressed")).toBe("true");
    await modeButton(second.page, "Plan").click();
    await expect.poll(() => modeButton(page, "Plan").getAttribute("aria-pressed"), { timeout: 20_000 }).toBe("true");
    await expect.poll(() => page.locator('[data-kind="say:info"]').last().textContent(), { timeout: 20_000 }).toContain("Plan mode");
    await modeButton(page, "Act").click();
    await expect.poll(() => modeButton(second.page, "Act").getAttribute("aria-pressed"), { timeout: 20_000 }).toBe("true");
    await askButton(page, "Yes, sign them").click();
    await expect.poll(() => JSON.stringify(model.requests[2]?.body ?? ""), { timeout: 20_000 }).toContain("Yes, sign them");

    // The next approval is answered on the phone; the desktop sees it answered and its buttons go.
    await second.page.locator('section.ask[data-ask="tool"]').waitFor({ timeout: 20_000 });
    await page.locator('section.ask[data-ask="tool"]').waitFor({ timeout: 20_000 });
    await second.page.screenshot({ path: "/tmp/cairn-web-phone.png", fullPage: false });
    await askButton(second.page, "Yes").click();
    await expect.poll(() => readFile(join(workspace, "notes.md"), "utf8").catch(() => ""), { timeout: 20_000 }).toContain("Signed: the greeting bot");
    await expect.poll(() => page.locator('[data-kind="ask:tool"] .answered').last().textContent(), { timeout: 20_000 }).toMatch(/^answered/);

    // The model completes (a server's task asks nobody to accept its result): the result is shown, the task completed.
    await expect.poll(() => page.locator(".task-page").getAttribute("data-status"), { timeout: 20_000 }).toBe("completed");
    expect(await page.locator('[data-kind="say:completion_result"]').textContent()).toContain("The greeting is updated and the notes are signed.");

    // Checkpoints: the oldest (the task's start) is restored (files): the notes go, the greeting is as it was.
    page.on("dialog", (dialog) => void dialog.accept());
    const checkpoints = page.locator(".timeline li");
    await expect.poll(() => checkpoints.count(), { timeout: 20_000 }).toBeGreaterThan(1);
    const oldest = checkpoints.last();
    await oldest.getByRole("button", { name: "Diff to now" }).click();
    await expect.poll(() => oldest.locator(".diff").textContent(), { timeout: 10_000 }).toContain("notes.md");
    await oldest.getByRole("button", { name: "↺ Files" }).click();
    await expect.poll(() => existsSync(join(workspace, "notes.md")), { timeout: 20_000 }).toBe(false);
    expect(await readFile(join(workspace, "greeting.txt"), "utf8")).toBe("Hello\n");

    await page.goto(`${server.origin}/#/`);
    const row = page.locator(`.task-rows li[data-task="${taskId}"]`);
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 10_000 }).toBe("completed");
    expect(await row.textContent()).toMatch(/\$\d/);
    expect([...first.errors, ...second.errors]).toEqual([]);
  }, 120_000);
});
