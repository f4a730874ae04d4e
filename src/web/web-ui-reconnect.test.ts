/**
 * The web UI against a server that dies: the real `bin/cairn serve` (run
 * `npm run build` first) is killed with SIGKILL while an answer streams and
 * started again on the same port. The page keeps what it showed, says it lost
 * the server, and once the user has opened the URL the new server printed
 * (a new token: `CAIRN_SERVER_TOKEN` is taken out of the environment with the
 * other secret-looking variables before `cairn serve` reads it), follows the
 * task again from the log and resumes it to the end.
 */
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { chromiumUsable, launchChromium, openUi, startServe } from "../journeys/test-support/web-client.js";

const cli = useCliFixture();
const longFile = Array.from({ length: 300 }, (_, index) => `cut(board, ${index});`);
const longAnswer = ["```ts", ...longFile, "```", "", ...Array.from({ length: 400 }, (_, index) => `Step ${index}: measure, then cut.\n`)].join("\n");

describe.skipIf(!chromiumUsable("the web UI's reconnect test"))("the web UI when the server dies", () => {
  it("keeps what it showed when the server dies, says it lost it, follows the task again through the restarted server's URL, and resumes it to the end", async () => {
    const model = await cli.startServer({ turns: [{ text: longAnswer, chunkSize: 40, delayMs: 20 }, { text: "<attempt_completion>\n<result>All steps done.</result>\n</attempt_completion>" }] });
    const args = anthropicArgs(model);
    const first = await startServe(cli.sandbox, args);
    cli.stopAfterTest(() => first.stop());
    const port = Number(new URL(first.origin).port);
    const browser = await launchChromium();
    cli.stopAfterTest(() => browser.close());
    const { page, errors } = await openUi(browser, first);

    const started = await fetch(`${first.origin}/api/tasks`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.token}`, "content-type": "application/json" },
      body: JSON.stringify({ prompt: "cut the board in steps", cwd: cli.sandbox.workspace }),
    });
    expect(started.status).toBe(201);
    const { taskId } = (await started.json()) as { taskId: string };
    await page.goto(`${first.origin}/#/task/${encodeURIComponent(taskId)}`);
    await expect.poll(() => page.locator(".msg.text").textContent(), { timeout: 20_000 }).toContain("Step 3:");
    expect(await page.locator(".task-page").getAttribute("data-running")).toBe("true");

    // As the answer grows: what was drawn stays drawn (the same element), the page follows the end,
    // and the start, now far above, is skipped by the browser yet still found by a search of the page.
    const firstStep = await page.locator(".msg.text p").first().elementHandle();
    await expect.poll(() => page.locator(".msg.text").textContent(), { timeout: 20_000 }).toContain("Step 150:");
    expect(await firstStep.evaluate((element) => element === document.querySelector(".msg.text p") && element.textContent)).toBe("Step 0: measure, then cut.");
    await expect.poll(() => page.evaluate("innerHeight + scrollY >= document.documentElement.scrollHeight - 150")).toBe(true);
    expect(await page.evaluate("document.querySelector('.msg.text .md-chunk p').checkVisibility({ contentVisibilityAuto: true })")).toBe(false);
    expect(await page.evaluate("window.find('Step 1: measure', false, true)")).toBe(true);
    const copied =
      "(() => { const range = document.createRange(); range.selectNodeContents(document.querySelector('.msg.text .md')); getSelection().removeAllRanges(); getSelection().addRange(range); const text = getSelection().toString(); getSelection().removeAllRanges(); return text; })()";
    expect(await page.evaluate(copied)).toMatch(/Step 0: measure, then cut\.\s+Step 1: measure, then cut\.\s+Step 2:/);
    // The long code block is drawn in pieces, and reads (and copies) as one.
    expect(await page.locator(".msg.text pre").count()).toBeGreaterThan(1);
    expect(await page.evaluate(copied)).toContain(longFile.join("\n"));

    // The server dies mid-answer: the page says it is reconnecting and keeps what it showed.
    await first.kill();
    await page.locator(".tag.warn", { hasText: "reconnecting" }).waitFor({ timeout: 20_000 });
    expect(await page.locator(".msg.text").textContent()).toContain("Step 3:");

    // Started again on the same port: the old cookie is refused, and the page says what to do.
    const second = await startServe(cli.sandbox, args, {}, port);
    cli.stopAfterTest(() => second.stop());
    await expect.poll(() => page.locator(".task-head .note").textContent(), { timeout: 30_000 }).toContain("open the URL it printed");

    // The user opens the new URL, then the task: it is followed again from the log, stopped, and resumed to the end.
    await page.goto(second.url);
    await page.goto(`${second.origin}/#/task/${encodeURIComponent(taskId)}`);
    await expect.poll(() => page.locator('[data-kind="say:task"]').textContent(), { timeout: 20_000 }).toBe("cut the board in steps");
    await expect.poll(() => page.locator(".task-page").getAttribute("data-running"), { timeout: 20_000 }).toBe("false");
    // docs/server.md calls it aborted; the server (still) says running with nobody running it, which the page shows as interrupted.
    expect(["aborted", "interrupted"]).toContain(await page.locator(".task-page").getAttribute("data-status"));
    await page.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => page.locator(".task-page").getAttribute("data-status"), { timeout: 30_000 }).toBe("completed");
    expect(await page.locator('[data-kind="say:completion_result"]').textContent()).toContain("All steps done.");
    expect(errors).toEqual([]);
  }, 120_000);
});
