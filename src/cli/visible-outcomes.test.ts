import { describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const readMissing = { text: "<read_file>\n<path>missing.txt</path>\n</read_file>", usage: { inputTokens: 1000, outputTokens: 50 } };
const done = { text: "<attempt_completion>\n<result>looked</result>\n</attempt_completion>", usage: { inputTokens: 1200, outputTokens: 30 } };

function args(server: ScriptedServer, ...more: string[]): string[] {
  return ["--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5", ...more];
}

describe("failures, the final summary and whole-task totals are visible", () => {
  it("a failed tool: ✗ and the reason in the plain printer, status error + text in --json, and in cairn show", async () => {
    const server = await cli.startServer({ turns: [readMissing, done, readMissing, done] });
    const plain = await cli.run(["run", ...args(server), "look"]);
    expect(plain.status).toBe(0);
    expect(plain.stderr).toMatch(/✗ read_file missing\.txt: .*no file/);

    const json = await cli.run(["run", "--json", ...args(server), "look"]);
    const failed = json.events.filter((event) => event["say"] === "tool" && (event["meta"] as Record<string, unknown> | undefined)?.["status"] === "error");
    expect(failed).toHaveLength(1);
    expect(String((failed[0]!["meta"] as Record<string, unknown>)["error"])).toMatch(/no file at missing\.txt/);

    const taskId = String(json.events[0]?.["taskId"]);
    const show = await cli.run(["show", taskId]);
    expect(show.stdout).toMatch(/✗ .*no file at missing\.txt/);
  });

  it("cairn run ends with a summary line; --json ends with one result line with the same fields, the task id and the exit status", async () => {
    const server = await cli.startServer({ turns: [readMissing, done, readMissing, done] });
    const plain = await cli.run(["run", ...args(server), "look"]);
    const last = plain.stderr.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toMatch(/^completed · 2 turns · 2,200 tokens in · 80 out · \$0\.\d+ · \d+(\.\d)? s$/);

    const json = await cli.run(["run", "--json", ...args(server), "look"]);
    const lines = json.stdout.trimEnd().split("\n");
    const result = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({ type: "result", status: "completed", exitStatus: 0, turns: 2, tokensIn: 2200, tokensOut: 80, taskId: json.events[0]?.["taskId"] });
    expect(typeof result["cost"]).toBe("number");
    expect(typeof result["durationMs"]).toBe("number");
    expect(lines.filter((line) => line.includes('"type":"result"'))).toHaveLength(1);
  });

  it("token and cost totals cover the whole task, across resumes", async () => {
    const server = await cli.startServer({ turns: [readMissing, done, done] });
    const first = await cli.run(["run", "--json", ...args(server), "look"]);
    const taskId = String(first.events[0]?.["taskId"]);
    const resumed = await cli.run(["resume", "--json", ...args(server), taskId, "once more"]);
    expect(resumed.status).toBe(0);
    const result = JSON.parse(resumed.stdout.trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({ tokensIn: 3400, tokensOut: 110 });
    const show = await cli.run(["show", "--json", taskId]);
    expect(JSON.parse(show.stdout)).toMatchObject({ tokensIn: 3400, tokensOut: 110 });
  });
});
