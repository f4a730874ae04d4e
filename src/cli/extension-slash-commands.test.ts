import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionSlashCommands } from "./extension-slash-commands.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-slash-"));
  await mkdir(join(root, "ws", ".claude", "commands"), { recursive: true });
  await writeFile(join(root, "ws", ".claude", "commands", "review.md"), "---\ndescription: Review code\nargument-hint: <file>\n---\nReview $1\n");
  await writeFile(join(root, "ws", "AGENTS.md"), "Root rule.");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("custom commands, /newrule and /rules as slash commands in the terminal UI", () => {
  it("offers custom commands, /newrule and /rules; a custom command is sent as typed so the session expands it", async () => {
    const commands = await extensionSlashCommands({ workspace: join(root, "ws"), userConfigDir: join(root, "config"), claudeUserDir: join(root, "claude"), currentRules: () => undefined });
    expect(commands.map((command) => `${command.name} ${command.usage ?? ""}`.trim())).toEqual(["newrule [what the rule should say]", "rules [rule]", "review <file>"]);
    const sent: string[] = [];
    const printed: string[] = [];
    const context = (args: string) => ({ args, print: (text: string) => printed.push(text), send: (text: string) => sent.push(text) });
    await commands.find((command) => command.name === "review")?.run(context("src/a.ts"));
    await commands.find((command) => command.name === "newrule")?.run(context(""));
    await commands.find((command) => command.name === "rules")?.run(context(""));
    expect(sent).toEqual(["/review src/a.ts", "/newrule"]);
    expect(printed[0]).toContain("[x] AGENTS.md");
  });
});
