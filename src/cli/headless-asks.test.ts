import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const fixture = useCliFixture();
beforeEach(async () => {
  await fixture.startServer({
    turns: [{ text: "<write_to_file>\n<path>out.txt</path>\n<content>\nwritten\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>finished</result>\n</attempt_completion>" }],
  });
});

const args = (...extra: string[]): string[] => ["run", "--json", "--provider", "anthropic", "--base-url", fixture.server!.url, "--api-key", "test-key", ...extra, "write out.txt"];

describe("asks in headless mode (cairn run --json without --yes)", () => {
  it("each ask is a JSON line with its id; answers come back on stdin as JSON lines", async () => {
    const cli = startCli(args(), { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace, keepStdinOpen: true });
    const answered = new Set<string>();
    const answer = (): void => {
      for (const event of cli.events()) {
        const id = String(event["id"]);
        if (event["type"] !== "ask" || answered.has(id)) continue;
        answered.add(id);
        cli.child.stdin?.write(`${JSON.stringify({ id, response: "yes" })}\n`);
      }
    };
    cli.child.stdout?.on("data", answer);
    const status = await cli.exit;
    expect(status).toBe(0);
    expect(await readFile(join(fixture.sandbox.workspace, "out.txt"), "utf8")).toBe("written\n"); // the final newline is kept (#11)
    const asks = cli.events().filter((event) => event["type"] === "ask");
    // The completion is no ask headless: the task ends when the model completes.
    expect(asks.map((event) => event["ask"])).toEqual(["tool"]);
    expect(asks.every((event) => typeof event["id"] === "string" && event["taskId"] === cli.events()[0]?.["taskId"])).toBe(true);
  });

  it("closed stdin with --on-ask fail: exit 1 with a message naming the ask; nothing written", async () => {
    const result = await fixture.run(args("--on-ask", "fail"));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/tool/);
    await expect(access(join(fixture.sandbox.workspace, "out.txt"))).rejects.toThrow();
    expect(fixture.server!.requests).toHaveLength(1);
  });

  it("closed stdin with --on-ask deny: the edit is refused and the task goes on to its end", async () => {
    const result = await fixture.run(args("--on-ask", "deny"));
    expect(result.status).toBe(0);
    await expect(access(join(fixture.sandbox.workspace, "out.txt"))).rejects.toThrow();
    expect(JSON.stringify(fixture.server!.requests[1]?.body)).toContain("denied");
  });
});
