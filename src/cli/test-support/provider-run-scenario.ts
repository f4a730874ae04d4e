/**
 * The scripted task the provider end-to-end tests share (#20: Responses API,
 * Gemini; issue 34: Azure, Bedrock, Vertex AI): a 429, two writes in one answer
 * with reasoning, a dropped stream, an edit and a command, a write cut by the
 * output limit, then completion, in the XML protocol and in native tool calls.
 * Each provider's test adds what is its own (request shapes, credentials).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { ScenarioTurn, ScenarioUsage } from "../../llm/scripted/scenario.js";

export const editDiff = "------- SEARCH\none\n=======\nONE\n+++++++ REPLACE";

/** The task in the XML protocol; `signature` signs the reasoning, `outputLimit` is the API's stop reason for a cut. */
export function xmlTaskTurns(options: { signature: string; outputLimit: string }): ScenarioTurn[] {
  return [
    { error: { status: 429, headers: { "retry-after": "1" } } },
    {
      reasoning: "Two files first.",
      reasoningSignature: options.signature,
      text: "Writing both files.\n<write_to_file>\n<path>a.txt</path>\n<content>\none\n</content>\n</write_to_file>\n" + "<write_to_file>\n<path>b.txt</path>\n<content>\ntwo\n</content>\n</write_to_file>",
    },
    { text: "Now editing the first one and concatenating the two", chunkSize: 4, dropAfterChunks: 8 },
    {
      reasoning: "Edit, then cat.",
      text:
        `<replace_in_file>\n<path>a.txt</path>\n<diff>\n${editDiff}\n</diff>\n</replace_in_file>\n` +
        "<execute_command>\n<command>cat a.txt b.txt > c.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
    },
    { text: "<write_to_file>\n<path>big.txt</path>\n<content>\ncut he", stopReason: options.outputLimit },
    { text: "<attempt_completion>\n<result>all done</result>\n</attempt_completion>" },
  ];
}

/**
 * The task in native tool calls: `ids` prefixes the call ids (`call_`, `toolu_`); `outputLimit` is the
 * API's stop reason for the cut write; `signature` signs the first reasoning, `reasonBeforeEdit` adds
 * reasoning to the edit, `usage` is the first answer's.
 */
export function nativeTaskTurns(options: { ids: string; outputLimit: string; signature?: string; reasonBeforeEdit?: boolean; usage?: ScenarioUsage }): ScenarioTurn[] {
  const id = (letter: string): string => `${options.ids}${letter}`;
  return [
    { error: { status: 429, headers: { "retry-after": "1" } } },
    {
      reasoning: "Two files first.",
      ...(options.signature === undefined ? {} : { reasoningSignature: options.signature }),
      text: "Writing both files.",
      toolCalls: [
        { id: id("a"), name: "write_to_file", arguments: { path: "a.txt", content: "one\n" } },
        { id: id("b"), name: "write_to_file", arguments: { path: "b.txt", content: "two\n" } },
      ],
      ...(options.usage === undefined ? {} : { usage: options.usage }),
    },
    { text: "Now editing the first one and concatenating the two", chunkSize: 4, dropAfterChunks: 8 },
    {
      ...(options.reasonBeforeEdit === true ? { reasoning: "Edit, then cat." } : {}),
      toolCalls: [
        { id: id("c"), name: "replace_in_file", arguments: { path: "a.txt", diff: editDiff } },
        { id: id("d"), name: "execute_command", arguments: { command: "cat a.txt b.txt > c.txt", requires_approval: false } },
      ],
    },
    { toolCalls: [{ id: id("e"), name: "write_to_file", arguments: '{"path":"big.txt","content":"cut he' }], stopReason: options.outputLimit },
    { toolCalls: [{ id: id("f"), name: "attempt_completion", arguments: { result: "all done" } }] },
  ];
}

/** `cairn run --json --yes --parallel-tools` in `protocol`, the provider's own flags, then the prompt. */
export function taskRunArgs(protocol: "native" | "xml", providerFlags: string[], prompt = "make the files"): string[] {
  return ["run", "--json", "--yes", "--parallel-tools", "--tool-protocol", protocol, ...providerFlags, prompt];
}

/** What both protocols must show: the key nowhere, the files on disk, nothing of the cut write, the reasoning and the completion. */
export async function expectTaskDone(result: { status: number | null; stdout: string; stderr: string; events: Array<Record<string, unknown>> }, options: { workspace: string; apiKey: string }): Promise<void> {
  expect(result.stderr).not.toContain(options.apiKey);
  expect(result.stdout).not.toContain(options.apiKey);
  expect(result.status).toBe(0);
  expect(await readFile(join(options.workspace, "a.txt"), "utf8")).toBe("ONE\n");
  expect(await readFile(join(options.workspace, "c.txt"), "utf8")).toBe("ONE\ntwo\n");
  expect(existsSync(join(options.workspace, "big.txt"))).toBe(false);
  expect(result.events.some((event) => event["say"] === "reasoning" && String(event["text"]).includes("Two files first."))).toBe(true);
  expect(result.events.some((event) => event["say"] === "completion_result" && event["text"] === "all done")).toBe(true);
}
