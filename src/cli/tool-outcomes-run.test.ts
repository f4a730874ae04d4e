/**
 * How tool calls ended, on every surface of the CLI (text, --json, cairn
 * show), through the real CLI (bin/cairn → dist/: `npm run build` first)
 * against the scripted LLM server: why a command failed and its exit status,
 * how many actions were refused, and the content a write_to_file wrote.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolMetaOf } from "../task/contracts/message-meta.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { jsonEventProblems } from "../ui/headless/test-support/json-events-schema.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const command = (text: string, timeout?: number): { text: string } => ({
  text: `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>${timeout === undefined ? "" : `\n<timeout>${timeout}</timeout>`}\n</execute_command>`,
});
const done = { text: "<attempt_completion>\n<result>finished</result>\n</attempt_completion>" };

/** The final state of each command card, by command. */
function commandCards(messages: ReadonlyArray<{ say?: string; partial: boolean; text: string; meta?: unknown }>): Map<string, Record<string, unknown>> {
  const cards = new Map<string, Record<string, unknown>>();
  for (const message of messages) {
    if (message.say === "command" && !message.partial) cards.set(message.text.split("\n", 1)[0] ?? "", (message.meta ?? {}) as Record<string, unknown>);
  }
  return cards;
}

describe("how a tool call ended, on every surface", () => {
  it("a timed-out command, a non-zero exit, a refused command and a success: the reason and the exit status in text, --json and cairn show", { timeout: 90_000 }, async () => {
    // A rule of the user's config refuses rm (the approval policy's own decision; only shown here).
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10] }, sandboxOptIn: false, permissions: { deny: ["Bash(rm:*)"] } }));
    const turns = [command("sleep 5", 1), command("exit 3"), command("rm -rf build"), command("echo fine"), done];
    const server = await cli.startServer({ turns: [...turns, ...turns] });

    const text = await cli.run(["run", "--yes", ...anthropicArgs(server), "run the commands"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stderr).toMatch(/^✗ \$ sleep 5: timed out after 1 s and was stopped/m);
    expect(text.stderr).toMatch(/^✗ \$ exit 3: exited with code 3 after \d+(\.\d)? s$/m);
    expect(text.stderr).toMatch(/^✗ \$ rm -rf build: cairn refused this: the rule Bash\(rm:\*\) .*denies `rm -rf build`/m);
    expect(text.stderr).toMatch(/^ {2}exited with code 0 after \d+(\.\d)? s$/m);
    expect(text.stderr.trimEnd().split("\n").at(-1)).toMatch(/^completed · 5 turns · .* · 1 refused · \d+(\.\d)? s$/);
    expect(text.stdout).toBe("finished\n");

    const json = await cli.run(["run", "--yes", "--json", ...anthropicArgs(server), "run the commands"]);
    expect(json.status, json.stderr).toBe(0);
    const cards = commandCards(json.messages);
    expect(cards.get("sleep 5")).toMatchObject({ status: "error", error: expect.stringMatching(/^timed out after 1 s/), end: { kind: "timed_out", timeoutMs: 1000 } });
    expect(cards.get("exit 3")).toMatchObject({ end: { kind: "exited", exitCode: 3, signal: null }, durationMs: expect.any(Number) });
    expect(cards.get("exit 3")?.["status"]).toBeUndefined();
    expect(cards.get("rm -rf build")).toMatchObject({ approval: "refuse", status: "error", error: expect.stringMatching(/Bash\(rm:\*\)/) });
    expect(cards.get("echo fine")).toMatchObject({ end: { kind: "exited", exitCode: 0 } });
    const result = json.events.at(-1);
    expect(result).toMatchObject({ type: "result", status: "completed", refused: 1 });
    expect(jsonEventProblems(result)).toEqual([]);

    const show = await cli.run(["show", String(result?.["taskId"])]);
    expect(show.stdout).toMatch(/command\s+sleep 5\s+✗ timed out after 1 s and was stopped/);
    expect(show.stdout).toMatch(/command\s+exit 3\s+✗ exited with code 3 after/);
    expect(show.stdout).toMatch(/command\s+rm -rf build\s+✗ cairn refused this: the rule Bash\(rm:\*\)/);
    expect(show.stdout).toMatch(/command\s+echo fine\s+→ exited with code 0 after/);
  });

  it("actions denied under --on-ask deny are counted: the task completes, and the summary and the result line say how many were refused", { timeout: 60_000 }, async () => {
    const turns = [command("touch one"), command("touch two"), done];
    const server = await cli.startServer({ turns: [...turns, ...turns] });
    const text = await cli.run(["run", "--on-ask", "deny", ...anthropicArgs(server), "touch two files"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stderr).toMatch(/^✗ \$ touch one: The user denied this operation/m);
    expect(text.stderr.trimEnd().split("\n").at(-1)).toMatch(/^completed · 3 turns · .* · 2 refused · /);

    const json = await cli.run(["run", "--json", "--on-ask", "deny", ...anthropicArgs(server), "touch two files"]);
    expect(json.status, json.stderr).toBe(0);
    expect(json.events.at(-1)).toMatchObject({ type: "result", status: "completed", refused: 2 });
    expect(commandCards(json.messages).get("touch one")).toMatchObject({ approval: "ask", status: "rejected" });
  });

  it("a task with nothing refused says refused 0 in --json and nothing in the text summary", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [done, done] });
    const json = await cli.run(["run", "--json", ...anthropicArgs(server), "finish"]);
    expect(json.events.at(-1)).toMatchObject({ type: "result", refused: 0 });
    expect(json.events.at(-1)?.["subagents"]).toBeUndefined();
    const text = await cli.run(["run", ...anthropicArgs(server), "finish"]);
    expect(text.stderr.trimEnd().split("\n").at(-1)).not.toMatch(/refused|subagent/);
  });
});

describe("write_to_file in --json", () => {
  it("the final write_to_file card carries the whole content written", { timeout: 60_000 }, async () => {
    const content = Array.from({ length: 300 }, (_, index) => `const value${index} = ${index};`).join("\n");
    const server = await cli.startServer({
      turns: [{ text: `<write_to_file>\n<path>values.ts</path>\n<content>\n${content}\n</content>\n</write_to_file>`, chunkSize: 16, delayMs: 1 }, done],
    });
    const json = await cli.run(["run", "--yes", "--json", ...anthropicArgs(server), "write values.ts"]);
    expect(json.status, json.stderr).toBe(0);
    const written = await readFile(join(cli.sandbox.workspace, "values.ts"), "utf8");
    expect(written).toBe(`${content}\n`);
    const final = json.messages.filter((message) => message.say === "tool" && !message.partial && toolMetaOf(message as UiMessage, "write_to_file") !== undefined).at(-1);
    const meta = toolMetaOf(final as UiMessage, "write_to_file");
    expect(meta?.content).toBe(written);
    expect(meta?.characters).toBe(written.length);
    for (const line of json.stdout.trimEnd().split("\n")) expect(jsonEventProblems(JSON.parse(line))).toEqual([]);
  });
});
