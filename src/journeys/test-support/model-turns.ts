/**
 * What the scripted model says in a journey, in cairn's XML tool format, and
 * what the scripted server recorded of cairn's requests.
 */
import type { Scenario, ScenarioConversation, ScenarioTurn } from "../../llm/scripted/scenario.js";
import { startScriptedServer, type ScriptedServer } from "../../llm/scripted/server.js";
import { checkBubblewrap } from "../../security/sandbox.js";
import { firstUserTextOfBody } from "../../llm/scripted/conversation-router.js";
import { summarySystemPrompt } from "../../context/summary-request.js";

const tool = (name: string, fields: Record<string, string>): ScenarioTurn => ({
  text: `<${name}>\n${Object.entries(fields)
    .map(([key, value]) => `<${key}>${value}</${key}>`)
    .join("\n")}\n</${name}>`,
});

export const say = {
  command: (command: string): ScenarioTurn => tool("execute_command", { command, requires_approval: "false" }),
  write: (path: string, content: string): ScenarioTurn => tool("write_to_file", { path, content: `\n${content}\n` }),
  read: (path: string): ScenarioTurn => tool("read_file", { path }),
  edit: (path: string, search: string, replacement: string): ScenarioTurn => tool("replace_in_file", { path, diff: `\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n` }),
  search: (path: string, regex: string): ScenarioTurn => tool("search_files", { path, regex }),
  list: (path: string, recursive = false): ScenarioTurn => tool("list_files", { path, recursive: String(recursive) }),
  mcp: (server: string, name: string, argumentsObject: Record<string, unknown>): ScenarioTurn => tool("use_mcp_tool", { server_name: server, tool_name: name, arguments: JSON.stringify(argumentsObject) }),
  complete: (result: string): ScenarioTurn => tool("attempt_completion", { result }),
  /** use_subagents with its JSON array (`agent` defaults to general). */
  subagents: (items: Array<{ prompt: string; agent?: string }>): ScenarioTurn => tool("use_subagents", { subagents: JSON.stringify(items) }),
};

/**
 * A scripted model that answers each conversation (the user's task, a subagent's) by what its first message says;
 * `routes` answer requests by what their body holds (cairn's summary requests: `summaryRequests`).
 */
export function serveConversations(conversations: ScenarioConversation[], routes: Scenario["routes"] = []): Promise<ScriptedServer> {
  return startScriptedServer({ scenario: { turns: [], conversations, routes } });
}

/** The route that answers cairn's summary requests (compaction, src/context/summary-request.ts) with `turns`, in order. */
export function summaryRequests(turns: ScenarioTurn[]): NonNullable<Scenario["routes"]>[number] {
  return { bodyIncludes: summarySystemPrompt.slice(0, summarySystemPrompt.indexOf(" so that")), turns };
}

/** Whether a journey that runs in the sandbox can run here; says why it is skipped when not. */
export function sandboxUsable(journey: string): boolean {
  const bubblewrap = checkBubblewrap();
  if (!bubblewrap.ok) console.warn(`SKIPPED ${journey}: it runs in the sandbox, and bubblewrap is not usable here: ${bubblewrap.message}`);
  return bubblewrap.ok;
}

/** The requests of the conversation whose first user message contains `match`, in order (not the summary requests made for it). */
export function conversationRequests(server: ScriptedServer, match: string): Array<Record<string, unknown>> {
  return server.requests.filter((request) => request.route === undefined && firstUserTextOfBody(request.body).includes(match)).map((request) => request.body as Record<string, unknown>);
}

/** The system prompt of an Anthropic request body. */
export function systemPrompt(body: Record<string, unknown> | undefined): string {
  const system = body?.["system"];
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) return "";
  return system
    .map((part: unknown) => {
      const text = typeof part === "object" && part !== null ? (part as Record<string, unknown>)["text"] : undefined;
      return typeof text === "string" ? text : "";
    })
    .join("\n");
}

/** Everything cairn sent in a request's messages (tool results included), as one text. */
export function messagesText(body: Record<string, unknown> | undefined): string {
  return JSON.stringify(body?.["messages"] ?? []);
}

/** The text of a request's last user message: the result of the model's previous tool call. */
export function lastToolResult(body: Record<string, unknown> | undefined): string {
  const messages = body?.["messages"];
  if (!Array.isArray(messages)) return "";
  const last: unknown = messages.at(-1);
  return JSON.stringify(typeof last === "object" && last !== null ? (last as Record<string, unknown>)["content"] : "");
}
