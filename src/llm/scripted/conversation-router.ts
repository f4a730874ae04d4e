/**
 * Routes scripted requests to conversations (issue #17): parallel subagents
 * send requests in any order, so each conversation counts its own turns. A
 * request belongs to the first conversation whose `match` its first user
 * message contains; otherwise to the scenario's main `turns`.
 */
import type { Scenario, ScenarioTurn } from "./scenario.js";

export interface RoutedTurn {
  /** "main" or `conversations[i]`. */
  conversation: string;
  /** The turn's position in its conversation. */
  position: number;
  turn: ScenarioTurn | undefined;
  /** How many turns that conversation has (for the error message). */
  turnCount: number;
}

export class ConversationRouter {
  private readonly counters = new Map<string, number>();

  constructor(private readonly scenario: Scenario) {}

  next(firstUserText: string): RoutedTurn {
    const index = (this.scenario.conversations ?? []).findIndex((conversation) => firstUserText.includes(conversation.match));
    const conversation = index < 0 ? "main" : `conversations[${index}]`;
    const turns = index < 0 ? this.scenario.turns : (this.scenario.conversations?.[index]?.turns ?? []);
    const position = this.counters.get(conversation) ?? 0;
    this.counters.set(conversation, position + 1);
    return { conversation, position, turn: turns[position], turnCount: turns.length };
  }
}

/** The text of the first user message of an Anthropic or OpenAI request body (or a provider request's messages). */
export function firstUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return "";
  const first: unknown = messages.find((message) => typeof message === "object" && message !== null && (message as Record<string, unknown>)["role"] === "user");
  if (first === undefined) return "";
  const content = (first as Record<string, unknown>)["content"];
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (typeof part === "object" && part !== null && typeof (part as Record<string, unknown>)["text"] === "string" ? ((part as Record<string, unknown>)["text"] as string) : ""))
    .join("\n");
}

/**
 * The text of the first user message of a request body in any of the four APIs:
 * `messages` (Anthropic, OpenAI Chat Completions), `input` (OpenAI Responses: a string,
 * or items with a role), `contents` (Gemini: `parts` with text).
 */
export function firstUserTextOfBody(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const fields = body as Record<string, unknown>;
  if (Array.isArray(fields["messages"])) return firstUserText(fields["messages"]);
  const input = fields["input"];
  if (typeof input === "string") return input;
  if (Array.isArray(input)) return firstUserText(input);
  const contents = fields["contents"];
  if (!Array.isArray(contents)) return "";
  return firstUserText(
    contents.map((content: unknown) => (typeof content === "object" && content !== null ? { role: (content as Record<string, unknown>)["role"], content: (content as Record<string, unknown>)["parts"] } : content)),
  );
}
