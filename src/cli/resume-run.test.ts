import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startCli, withoutSandboxNotice } from "./test-support/cli-harness.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const fixture = useCliFixture();

/** The text of a request body's last user message (Anthropic format). */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages.filter((message) => message.role === "user").at(-1);
  return JSON.stringify(last?.content ?? "");
}

describe("cairn resume after an interruption", () => {
  it("an unanswered request is sent again with one <environment_details>, not the old one and a new one", async () => {
    await writeFile(join(fixture.sandbox.workspace, "notes.txt"), "notes\n");
    const stalled = await fixture.startServer({ turns: [{ text: "never sent", stallAfterChunks: 0 }] });
    const first = startCli(["run", "--json", "--yes", ...anthropicArgs(stalled), "say hello"], { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace });
    await first.waitForOutput(/"say":"api_req_started"/);
    while (stalled.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill("SIGKILL");
    await first.exit;
    const taskId = String(first.events()[0]?.["taskId"]);
    await stalled.close();

    const server = await fixture.startServer({ turns: [{ text: "<attempt_completion>\n<result>hello</result>\n</attempt_completion>" }] });
    const resumed = await fixture.run(["resume", "--json", "--yes", ...anthropicArgs(server), taskId]);
    expect(withoutSandboxNotice(resumed.stderr)).toBe("");
    expect(resumed.status).toBe(0);
    const sent = lastUserText(server.requests[0]?.body);
    expect(sent).toContain("say hello");
    expect(sent.split("<environment_details>")).toHaveLength(2);
    // Nothing of the task had reached the history: the file listing is still sent, once.
    expect(sent.split("notes.txt")).toHaveLength(2);
  });
});
