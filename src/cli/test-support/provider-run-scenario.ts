/**
 * The scripted task the provider end-to-end tests share (#20: Responses API,
 * Gemini): a 429, two writes in one answer with reasoning, a dropped stream, an
 * edit and a command, a write cut by the output limit, then completion. Each
 * provider's test adds what is its own (native calls, request shapes).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { ScenarioTurn } from "../../llm/scripted/scenario.js";

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
