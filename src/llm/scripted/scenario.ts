import { readFile } from "node:fs/promises";
import { z } from "zod";

/**
 * A scenario scripts cairn's LLM: request N (counting from 0, across both APIs) is answered by turn N.
 * The format is documented in docs/scripted-llm.md.
 */
const nonNegativeInteger = z.number().int().min(0);

const toolCallSchema = z.strictObject({
  /** The call id the server reports; generated when absent. */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** An object is serialised as JSON; a string is sent verbatim (so tests can send broken JSON). */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
});

const usageSchema = z.strictObject({
  inputTokens: nonNegativeInteger,
  outputTokens: nonNegativeInteger,
  cacheReadTokens: nonNegativeInteger.optional(),
  cacheWriteTokens: nonNegativeInteger.optional(),
  /** Of outputTokens, those spent reasoning (reported by the Responses format only). */
  reasoningTokens: nonNegativeInteger.optional(),
});

const httpErrorSchema = z.strictObject({
  status: z.number().int().min(400).max(599),
  /** Response body; when absent, the API's usual error body for that status is sent. */
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const streamErrorSchema = z.strictObject({
  /** e.g. "overloaded_error", "api_error", "rate_limit_error" */
  type: z.string().min(1),
  message: z.string(),
  /** Sent after this many chunks of the turn. */
  afterChunks: nonNegativeInteger,
});

const turnSchema = z.strictObject({
  reasoning: z.string().optional(),
  /** Anthropic thinking signature (Responses: the encrypted_content); a placeholder is sent when absent. */
  reasoningSignature: z.string().optional(),
  /** Anthropic redacted_thinking blocks (their opaque data), sent before the thinking block. */
  redactedReasoning: z.array(z.string()).optional(),
  text: z.string().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  usage: usageSchema.optional(),
  /** Overrides the stop reason (Anthropic stop_reason / OpenAI finish_reason). */
  stopReason: z.string().min(1).optional(),
  /** Characters of text, reasoning or tool arguments per delta. */
  chunkSize: z.number().int().min(1).optional(),
  /** Pause before each chunk after the first, in milliseconds. */
  delayMs: nonNegativeInteger.optional(),
  /** Answer with this HTTP error instead of a stream. */
  error: httpErrorSchema.optional(),
  /** Send an error event inside the stream (as the APIs do when overloaded mid-answer). */
  streamError: streamErrorSchema.optional(),
  /** Destroy the socket after this many chunks (0: before any response). */
  dropAfterChunks: nonNegativeInteger.optional(),
  /** Stop sending after this many chunks but keep the socket open (0: not even headers). */
  stallAfterChunks: nonNegativeInteger.optional(),
});

/**
 * Requests whose body contains `bodyIncludes` are answered from this route's own turns, in
 * order, without using up the main turns (e.g. cairn's summary requests, which come whenever
 * compaction decides).
 */
const routeSchema = z.strictObject({
  bodyIncludes: z.string().min(1),
  turns: z.array(turnSchema),
});

/**
 * A conversation of its own (subagents, issue #17): a request whose first user
 * message contains `match` is answered by this conversation's next turn.
 */
const conversationSchema = z.strictObject({
  match: z.string().min(1),
  turns: z.array(turnSchema),
});

export const scenarioSchema = z.strictObject({
  /** Model name reported in responses when the request does not name one. */
  model: z.string().optional(),
  /** Defaults for every turn. */
  chunkSize: z.number().int().min(1).optional(),
  delayMs: nonNegativeInteger.optional(),
  turns: z.array(turnSchema),
  /** Requests routed by their first user message; the rest go to `turns`. */
  conversations: z.array(conversationSchema).optional(),
  routes: z.array(routeSchema).optional(),
});

export type ScenarioToolCall = z.infer<typeof toolCallSchema>;
export type ScenarioUsage = z.infer<typeof usageSchema>;
export type ScenarioTurn = z.infer<typeof turnSchema>;
export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioConversation = z.infer<typeof conversationSchema>;

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScenarioError";
  }
}

/** Checks a parsed JSON value; the error lists every problem with its path (e.g. `turns[2].toolCalls[0].name`). */
export function parseScenario(value: unknown, source = "scenario"): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.map((part, position) => (typeof part === "number" ? `[${part}]` : position === 0 ? String(part) : `.${String(part)}`)).join("");
      return `  - ${path === "" ? "(top level)" : path}: ${issue.message}`;
    });
    throw new ScenarioError(`${source} is not a valid scenario:\n${problems.join("\n")}\nSee docs/scripted-llm.md for the format.`);
  }
  return result.data;
}

export async function loadScenario(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScenarioError(`cannot read scenario file ${file}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScenarioError(`scenario file ${file} is not valid JSON: ${reason}`);
  }
  return parseScenario(value, `scenario file ${file}`);
}

/** Splits `text` into pieces of `size` characters, never splitting a surrogate pair. */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  const characters = Array.from(text);
  for (let start = 0; start < characters.length; start += size) {
    pieces.push(characters.slice(start, start + size).join(""));
  }
  return pieces;
}

export function toolArgumentsText(call: ScenarioToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}
