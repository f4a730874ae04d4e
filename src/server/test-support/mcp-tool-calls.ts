/** A test's calls of `cairn mcp serve`'s tools through the MCP SDK's client: the JSON value, or the error text. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export interface ToolAnswer {
  isError: boolean;
  /** The text the tool returned (an error's message). */
  text: string;
  /** The text as JSON, when it is. */
  value: Record<string, unknown>;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const content = result.content as Array<{ type: string; text?: string }>;
  const text = content.map((part) => part.text ?? "").join("");
  let value: Record<string, unknown> = {};
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // An error's message is no JSON.
  }
  return { isError: result.isError === true, text, value };
}

/** Calls a tool that must succeed and returns its value. */
export async function valueOf(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await callTool(client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${answer.text}`);
  return answer.value;
}
