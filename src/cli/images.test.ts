/** Issue #12 images: --image, read_file of an image, image paths in the TUI (real CLI, scripted server). */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

// A 1x1 PNG, and another so the two can be told apart in requests.
const pngA = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const pngB = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const cli = useTerminalFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, "shot.png"), pngA);
    await writeFile(join(sandbox.workspace, "diagram.png"), pngB);
  },
});

const done = { text: "<attempt_completion>\n<result>seen</result>\n</attempt_completion>" };

describe("images reach the model from --image, read_file and the TUI, or the user is told why not", () => {
  it("--image sends the image with the task; read_file of an image returns it as an image (Anthropic)", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: "<read_file>\n<path>diagram.png</path>\n</read_file>" }, done] });
    const result = await cli.run(["run", "--yes", ...anthropicArgs(server, "k"), "--image", "shot.png", "what is wrong here?"]);
    expect(result.status).toBe(0);
    const first = JSON.stringify(server.requests[0]?.body);
    expect(first).toContain(pngA.toString("base64"));
    expect(first).toContain('"type":"image"');
    const second = JSON.stringify(server.requests[1]?.body);
    expect(second).toContain(pngB.toString("base64"));
  });

  it("a model without images gets none, and the user is told; a missing --image file is a usage error", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [done] });
    const result = await cli.run(["run", "--yes", "--provider", "openai", "--base-url", `${server.url}/v1`, "--api-key", "k", "--model", "some-local-model", "--image", "shot.png", "look"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/does not accept images/);
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain(pngA.toString("base64"));
    const missing = await cli.run(["run", "--provider", "anthropic", "--api-key", "k", "--image", "nope.png", "look"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--image nope\.png: no such file/);
  });

  it.skipIf(!tmuxAvailable())("an image path typed or pasted in the TUI is sent as an image", { timeout: 90_000 }, async () => {
    const server = await cli.startServer({ turns: [done] });
    const terminal = await cli.openCairn(["--yes", ...anthropicArgs(server, "k")]);
    await terminal.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await terminal.paste(`what is in ${join(cli.sandbox.workspace, "shot.png")}`);
    await terminal.sendKeys("Enter");
    const screen = await terminal.waitFor(/seen/, { timeoutMs: 60_000 });
    expect(screen).toMatch(/\+ attached: .*shot\.png/);
    expect(JSON.stringify(server.requests[0]?.body)).toContain(pngA.toString("base64"));
  });
});
