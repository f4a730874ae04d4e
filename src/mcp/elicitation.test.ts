/**
 * MCP elicitation: a real stdio server (the SDK's McpServer) that asks the user
 * for a booking's details during a tool call. In process through the hub and the
 * tool's asks (end to end through `cairn run`: the journey "A remote MCP server
 * behind sign-in"; with nobody to answer: src/ui/headless/headless-host.test.ts).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskResponse } from "../task/contracts/messages.js";
import type { ElicitationMeta } from "../task/contracts/message-meta.js";
import { askForElicitation } from "../tools/mcp/elicitation.js";
import { McpHub } from "./hub.js";
import { EventLog, serverConfig } from "./test-support/servers.js";

const serverEntry = fileURLToPath(new URL("./test-support/eliciting-server.js", import.meta.url));
const transport = { type: "stdio" as const, command: process.execPath, args: [serverEntry], env: {} };

let hub: McpHub;
const events = new EventLog();

beforeAll(async () => {
  hub = new McpHub({ servers: [serverConfig("bistro", transport)], onEvent: events.listener });
  await hub.waitForServers(20_000, new AbortController().signal);
});
afterAll(() => hub.close());

/** A user who answers each field's question from a list, and the questions they saw. */
function user(answers: AskResponse[]): { asked: Array<{ text: string; meta: ElicitationMeta | undefined }>; ask: Parameters<typeof askForElicitation>[0]["ask"] } {
  const asked: Array<{ text: string; meta: ElicitationMeta | undefined }> = [];
  return {
    asked,
    ask: async (_type, text, options) => {
      asked.push({ text, meta: options?.meta as ElicitationMeta | undefined });
      return answers.shift() ?? { response: "no" };
    },
  };
}

async function book(onElicit?: (request: Parameters<typeof askForElicitation>[1]) => ReturnType<typeof askForElicitation>): Promise<string> {
  const result = await hub.callTool({ server: "bistro", tool: "book_table", arguments: {}, signal: new AbortController().signal, ...(onElicit === undefined ? {} : { onElicit }) });
  return JSON.stringify(result.content);
}

describe("an MCP server asks the user for input during a tool call", () => {
  it("each field is a question; a wrong value is asked again; the accepted form reaches the server", async () => {
    const person = user([{ response: "message", text: "four" }, { response: "message", text: "4" }, { response: "message", text: "2" }, { response: "yes" }]);
    const result = await book((request) => askForElicitation(person, request));
    expect(result).toContain('booking answer: {\\"action\\":\\"accept\\",\\"content\\":{\\"guests\\":4,\\"seating\\":\\"terrace\\"}}');
    expect(person.asked.map((question) => question.text)).toEqual([
      'MCP server "bistro" asks: Which table should I book?\nGuests:',
      '"four" is not a number. Guests:',
      "Seating:",
      "Note (anything the restaurant should know) [optional]:",
    ]);
    expect(person.asked[2]?.meta).toMatchObject({ server: "bistro", field: "seating", type: "string", options: ["inside", "terrace"], required: true, index: 2, count: 3 });
  });

  it("no declines the whole form, and the server hears it", async () => {
    const person = user([{ response: "message", text: "2" }, { response: "no" }]);
    expect(await book((request) => askForElicitation(person, request))).toContain('{\\"action\\":\\"decline\\"}');
    expect(person.asked).toHaveLength(2);
  });

  it("a call nobody can answer for is declined, and the user is told", async () => {
    const declined = events.next("elicitation_declined", "bistro");
    expect(await book()).toContain('{\\"action\\":\\"decline\\"}');
    expect((await declined).reason).toBe("it came while none of its tool calls was running");
  });
});
