/**
 * #18 the `--json` format 2 through the real CLI against the scripted server:
 * every line fits docs/json-events.schema.json, a message starts with its whole
 * text and continues with deltas, output grows linearly with the answer, and a
 * secret streamed in pieces never shows in part.
 */
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { JsonEventReader } from "../ui/headless/json-events-reader.js";
import { jsonEventProblems } from "../ui/headless/test-support/json-events-schema.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const apiKey = "sk-ant-test-9f8e7d6c5b4a39281706";

async function run(scenario: Scenario): ReturnType<typeof cli.run> {
  const server = await cli.startServer(scenario);
  const args = ["run", "--json", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", apiKey, "--model", "claude-sonnet-5-5", "--tool-protocol", "xml", "answer"];
  const result = await cli.run(args);
  expect(result.status, result.stderr).toBe(0);
  return result;
}

const complete = { text: "<attempt_completion>\n<result>\nAll done.\n</result>\n</attempt_completion>" };

describe("cairn run --json, format 2: valid snapshots and deltas that never show a key", () => {
  it("every line fits the schema and carries v 2; each message starts with its whole text, then deltas; folded, the text is the final text", async () => {
    const answer = `${"A streamed answer, line by line.\n".repeat(60)}The end.`;
    const result = await run({ turns: [{ text: `${answer}\n<write_to_file>\n<path>a.txt</path>\n<content>\nhello\n</content>\n</write_to_file>`, chunkSize: 48, delayMs: 15 }, complete] });
    const lines = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) expect(jsonEventProblems(line), JSON.stringify(line)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ v: 2, type: "result", status: "completed" });

    const seen = new Set<string>();
    for (const line of lines.filter((event) => event["type"] === "say" || event["type"] === "ask")) {
      const id = String(line["id"]);
      // The first line of every message is a snapshot with its whole text.
      if (!seen.has(id)) expect(line, `first line of ${id}`).toHaveProperty("text");
      seen.add(id);
    }
    const text = result.messages.find((message) => message.say === "text" && message.text.startsWith("A streamed answer"));
    expect(text?.text).toContain("The end.");
    expect(text?.partial).toBe(false);
    const deltas = lines.filter((line) => line["id"] === text?.id && typeof line["delta"] === "string");
    expect(deltas.length).toBeGreaterThan(2);
    // The text about twice: once in the updates, once in the final line (version 1 sent it on every line).
    const carried = lines.filter((line) => line["id"] === text?.id).reduce((sum, line) => sum + String(line["text"] ?? line["delta"]).length, 0);
    expect(carried).toBeLessThan(2.2 * (text?.text.length ?? 0));
    expect(result.messages.find((message) => message.say === "completion_result")?.text).toBe("All done.");
  }, 60_000);

  it("a provider key streamed across chunks never shows any 8-character piece of it, in partial or final lines", async () => {
    const sentence = `Connecting with ${apiKey} now; the key again: ${apiKey}.`;
    const said = `${sentence} ${sentence} ${sentence} Done.`;
    const result = await run({ turns: [{ text: said, chunkSize: 3, delayMs: 30 }, complete] });
    const pieces = Array.from({ length: apiKey.length - 7 }, (_, start) => apiKey.slice(start, start + 8));
    for (const piece of pieces) expect(result.stdout).not.toContain(piece);
    // Nor does a reader that joins the deltas up see a piece at any moment (a piece split across two deltas).
    const reader = new JsonEventReader();
    for (const line of result.stdout.trimEnd().split("\n")) {
      const message = reader.push(line);
      for (const piece of pieces) expect(message?.text ?? "").not.toContain(piece);
    }
    const text = result.messages.find((message) => message.say === "text");
    const redacted = "Connecting with [REDACTED] now; the key again: [REDACTED].";
    expect(text?.text).toBe(`${redacted} ${redacted} ${redacted} Done.`);
    // The updates really did arrive while the key was streaming (small ones are held up to a second).
    expect(result.events.filter((event) => event["id"] === text?.id).length).toBeGreaterThan(2);
  }, 60_000);
});
