/**
 * The answers the stream benchmark (issue 18) serves: 1 MiB of prose in small
 * deltas ending in attempt_completion, once with the call as XML in the text
 * and once as a native tool call, and a 200-turn task of small tool calls.
 */
import type { Scenario, ScenarioTurn } from "../../src/llm/scripted/scenario.js";

export const answerCharacters = 1024 * 1024;
/** Characters per delta (the issue: small deltas, 8-16 characters). */
export const chunkSize = 12;

export type ToolProtocol = "xml" | "native";
export const toolProtocols: readonly ToolProtocol[] = ["xml", "native"];

/** The first user message a request must contain to get this protocol's answer (cairn's task text, the floor's message). */
export const matchOf = (protocol: ToolProtocol): string => `bench-stream-${protocol}`;

function prose(length: number): string {
  const paragraph = "The quick brown fox checks the failing test, reads the source, and explains the fix in detail.\n";
  return paragraph.repeat(Math.ceil(length / paragraph.length)).slice(0, length);
}

export function streamAnswer(protocol: ToolProtocol): ScenarioTurn {
  const text = prose(answerCharacters);
  const usage = { inputTokens: 1000, outputTokens: 250_000 };
  if (protocol === "xml") return { text: `${text}\n<attempt_completion>\n<result>done</result>\n</attempt_completion>`, chunkSize, usage };
  return { text, chunkSize, usage, toolCalls: [{ name: "attempt_completion", arguments: { result: "done" } }] };
}

/** A slow stream (the issue: --json output must stay small for slow streams too): 128 KiB, a delta every millisecond. */
export const slowAnswerCharacters = 128 * 1024;
export const slowMatch = "bench-stream-slow";
export function slowAnswer(): ScenarioTurn {
  return { text: `${prose(slowAnswerCharacters)}\n<attempt_completion>\n<result>done</result>\n</attempt_completion>`, chunkSize, delayMs: 1 };
}

/** Enough answers of each protocol for `count` requests, and a few slow ones; the turn objects are shared, not copied. */
export function streamScenario(count: number): Scenario {
  const slow = slowAnswer();
  return {
    turns: [],
    conversations: [
      ...toolProtocols.map((protocol) => {
        const turn = streamAnswer(protocol);
        return { match: matchOf(protocol), turns: Array.from({ length: count }, () => turn) };
      }),
      { match: slowMatch, turns: [slow, slow, slow, slow] },
    ],
  };
}

/**
 * `turns` small tool turns, then attempt_completion (XML tools in text): even
 * turns read a small file of the workspace, odd turns run a short command.
 */
export function manyTurnsScenario(turns: number): Scenario {
  const tool = (index: number): ScenarioTurn => {
    if (index % 2 === 0) {
      return { text: `Turn ${index + 1}: reading the notes.\n<read_file>\n<path>notes/file-${index % 10}.txt</path>\n</read_file>` };
    }
    return { text: `Turn ${index + 1}: checking the folder.\n<execute_command>\n<command>echo turn ${index + 1}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` };
  };
  const completion: ScenarioTurn = { text: "All turns done.\n<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
  return { turns: [...Array.from({ length: turns }, (_, index) => tool(index)), completion] };
}
