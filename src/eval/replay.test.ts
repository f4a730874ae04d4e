/**
 * Issue #19: `cairn replay TASK` turns a recorded session into a scenario; the
 * scenario played again reproduces the original run's tool calls and files.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../cli/test-support/cli-harness.js";
import { loadScenario, type Scenario } from "../llm/scripted/scenario.js";
import { startScriptedServer, type ScriptedServer } from "../llm/scripted/server.js";

let sandbox: Sandbox | undefined;
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await sandbox?.cleanup();
  sandbox = undefined;
});

const xmlSession: Scenario = {
  turns: [
    { reasoning: "Start with the notes.", text: "Writing the notes.\n<write_to_file>\n<path>notes.txt</path>\n<content>\nalpha\n</content>\n</write_to_file>", usage: { inputTokens: 100, outputTokens: 20 } },
    { text: "<replace_in_file>\n<path>notes.txt</path>\n<diff>\n------- SEARCH\nalpha\n=======\nbeta\n+++++++ REPLACE\n</diff>\n</replace_in_file>", usage: { inputTokens: 150, outputTokens: 30 } },
    { text: "<execute_command>\n<command>echo from-the-command > cmd.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>", usage: { inputTokens: 170, outputTokens: 25 } },
    { text: "<attempt_completion>\n<result>\nNotes written.\n</result>\n</attempt_completion>", usage: { inputTokens: 200, outputTokens: 15 } },
  ],
};

const nativeSession: Scenario = {
  turns: [
    { text: "Writing the notes.", toolCalls: [{ name: "write_to_file", arguments: { path: "notes.txt", content: "alpha\n" } }] },
    { toolCalls: [{ name: "replace_in_file", arguments: { path: "notes.txt", diff: "------- SEARCH\nalpha\n=======\nbeta\n+++++++ REPLACE" } }] },
    { toolCalls: [{ name: "execute_command", arguments: { command: "echo from-the-command > cmd.txt", requires_approval: false } }] },
    { toolCalls: [{ name: "attempt_completion", arguments: { result: "Notes written." } }] },
  ],
};

/** Each call once: a card updated later (a command's ending) is the same message, by id. */
function toolCalls(events: Array<Record<string, unknown>>): unknown[] {
  const latest = new Map<unknown, Record<string, unknown>>();
  for (const event of events) latest.set(event["id"] ?? latest.size, event);
  return [...latest.values()]
    .filter((event) => event["type"] === "say" && event["partial"] === false && (event["say"] === "tool" || event["say"] === "command" || event["say"] === "completion_result"))
    .map((event) => {
      const meta = (event["meta"] ?? {}) as Record<string, unknown>;
      return { say: event["say"], tool: meta["tool"], path: meta["path"], text: event["say"] === "tool" ? undefined : event["text"] };
    });
}

async function runSession(options: { box: Sandbox; workspace: string; scenario: Scenario; protocol: string }): Promise<{ events: Array<Record<string, unknown>>; taskId: string }> {
  const server = await startScriptedServer({ scenario: options.scenario });
  servers.push(server);
  const env = { ...options.box.env, ANTHROPIC_API_KEY: "scripted-test-key" };
  const run = await runCli(["run", "--json", "--yes", "--provider", "anthropic", "--base-url", server.url, "--tool-protocol", options.protocol, "write the notes"], { env, cwd: options.workspace });
  expect(run.status, run.stderr).toBe(0);
  const taskId = String(run.events[0]?.["taskId"]);
  return { events: run.events, taskId };
}

describe("cairn replay reproduces a recorded session", () => {
  it.each([
    ["xml", xmlSession],
    ["native", nativeSession],
  ])(
    "a replayed %s session reproduces the original run's tool calls and files",
    async (protocol, session) => {
      sandbox = await makeSandbox();
      const box = sandbox;
      const original = await runSession({ box, workspace: box.workspace, scenario: session, protocol });

      const out = join(box.root, "replayed.json");
      const replay = await runCli(["replay", original.taskId, "--out", out], { env: box.env, cwd: box.root });
      expect(replay.status, replay.stderr).toBe(0);
      const scenario = await loadScenario(out);
      expect(scenario.turns).toHaveLength(4);

      const again = join(box.root, "again");
      await mkdir(again);
      const replayed = await runSession({ box, workspace: again, scenario, protocol });
      expect(toolCalls(replayed.events)).toEqual(toolCalls(original.events));
      expect(toolCalls(original.events)).toHaveLength(4);
      for (const file of ["notes.txt", "cmd.txt"]) {
        expect(await readFile(join(again, file), "utf8")).toBe(await readFile(join(box.workspace, file), "utf8"));
      }
      expect(await readFile(join(again, "notes.txt"), "utf8")).toMatch(/^beta\n?$/);
    },
    60_000,
  );

  it("replay of an unknown task says so and writes nothing", async () => {
    sandbox = await makeSandbox();
    const run = await runCli(["replay", "no-such-task", "--out", join(sandbox.root, "x.json")], { env: sandbox.env, cwd: sandbox.root });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/no task "no-such-task"/);
    await expect(readFile(join(sandbox.root, "x.json"), "utf8")).rejects.toThrow();
  });
});
