/**
 * What the user (not the model) takes from MCP servers: prompts typed as
 * `/mcp__server__prompt args` and resources mentioned as `@server:uri`, expanded
 * into the message before the model sees it.
 */
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";

export interface McpPromptInfo {
  server: string;
  name: string;
  description: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  description?: string;
}

/** What a user reference needs from the hub. */
export interface McpReferenceSource {
  /** The servers connected now. */
  connectedServers(): string[];
  listPrompts(): McpPromptInfo[];
  listResources(): McpResourceInfo[];
  getPrompt(options: { server: string; name: string; arguments: Record<string, string>; signal: AbortSignal }): Promise<string>;
  readResourceText(options: { server: string; uri: string; signal: AbortSignal }): Promise<string>;
}

export function promptCommandName(server: string, prompt: string): string {
  return `mcp__${server}__${prompt}`;
}

/** What the prompt's command takes: `<required> [optional]`, "" for none. */
export function promptUsage(prompt: McpPromptInfo): string {
  return prompt.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(" ");
}

/** How the completion menus describe a prompt's command. */
export function promptCommandDescription(prompt: McpPromptInfo): string {
  return `${prompt.description === "" ? prompt.name : prompt.description} (MCP prompt of ${prompt.server})`;
}

/**
 * The prompt's arguments from what was typed after the command: `name=value`
 * pairs (quotes allowed) when every word is one, otherwise the words in the
 * order the prompt declares its arguments, the last one taking the rest.
 */
export function mapPromptArguments(prompt: McpPromptInfo, typed: string): { arguments: Record<string, string> } | { problem: string } {
  const words = [...typed.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g)].map((match) => match[0]);
  const unquote = (text: string): string => text.replace(/^(["'])(.*)\1$/s, "$2");
  const result: Record<string, string> = {};
  const declared = prompt.arguments.map((argument) => argument.name);
  if (words.length > 0 && words.every((word) => /^[A-Za-z_][\w-]*=/.test(word) && declared.includes(word.slice(0, word.indexOf("="))))) {
    for (const word of words) result[word.slice(0, word.indexOf("="))] = unquote(word.slice(word.indexOf("=") + 1));
  } else {
    for (const [index, name] of declared.entries()) {
      const isLast = index === declared.length - 1;
      const value = isLast ? words.slice(index).map(unquote).join(" ") : words[index] === undefined ? undefined : unquote(words[index]);
      if (value !== undefined && value !== "") result[name] = value;
    }
    if (declared.length === 0 && words.length > 0) return { problem: `/${promptCommandName(prompt.server, prompt.name)} takes no arguments` };
  }
  const missing = prompt.arguments.filter((argument) => argument.required && result[argument.name] === undefined).map((argument) => argument.name);
  if (missing.length > 0) {
    return { problem: `/${promptCommandName(prompt.server, prompt.name)} needs ${missing.join(", ")}: /${promptCommandName(prompt.server, prompt.name)} ${promptUsage(prompt)}` };
  }
  return { arguments: result };
}

/** A prompt's messages as one text for the task: each message's text, resources and a note for what cannot be text. */
export function promptText(result: GetPromptResult): string {
  return result.messages
    .map((message) => {
      const content = message.content;
      if (content.type === "text") return content.text;
      if (content.type === "resource") return "text" in content.resource ? content.resource.text : `(binary resource ${content.resource.uri})`;
      return `(${content.type} content from the prompt)`;
    })
    .join("\n\n");
}

const mentionPattern = /(^|\s)@([A-Za-z0-9_-]+):(\S+)/g;

/** The `@server:uri` mentions of a text (a uri with a scheme), in order, without duplicates. */
export function findResourceMentions(text: string): Array<{ server: string; uri: string }> {
  const found: Array<{ server: string; uri: string }> = [];
  for (const match of text.matchAll(mentionPattern)) {
    const uri = match[3]!.replace(/[.,;!?)]+$/, "");
    if (!/^[A-Za-z][\w+.-]*:/.test(uri)) continue;
    if (!found.some((seen) => seen.server === match[2] && seen.uri === uri)) found.push({ server: match[2]!, uri });
  }
  return found;
}

/** Whether a mention target (what follows `@`) names an MCP resource rather than a file. */
export function isResourceMention(target: string): boolean {
  return /^[A-Za-z0-9_-]+:[A-Za-z][\w+.-]*:/.test(target);
}

/**
 * The message with its MCP references expanded: a leading `/mcp__server__prompt args`
 * becomes the prompt's text; each `@server:uri` of a configured server adds the
 * resource's content after the message. A reference that cannot be used becomes a
 * note for the user (and the model), never an error.
 */
export async function expandMcpReferences(text: string, source: McpReferenceSource, signal: AbortSignal): Promise<{ text: string; notices: string[] }> {
  const notices: string[] = [];
  let message = text;
  const command = /^\s*\/(mcp__([A-Za-z0-9_-]+?)__(\S+))(?:\s+([\s\S]*))?$/.exec(text);
  if (command !== null) {
    const prompt = source.listPrompts().find((candidate) => promptCommandName(candidate.server, candidate.name) === command[1]);
    if (prompt === undefined) notices.push(`/${command[1]} is not a prompt of a connected MCP server; the message was sent as typed.`);
    else {
      const mapped = mapPromptArguments(prompt, command[4]?.trim() ?? "");
      if ("problem" in mapped) notices.push(`${mapped.problem}; the message was sent as typed.`);
      else {
        try {
          message = await source.getPrompt({ server: prompt.server, name: prompt.name, arguments: mapped.arguments, signal });
          notices.push(`Running the MCP prompt /${command[1]}`);
        } catch (error) {
          notices.push(`/${command[1]} failed: ${(error as Error).message}; the message was sent as typed.`);
        }
      }
    }
  }
  const known = new Set(source.connectedServers());
  const attached: string[] = [];
  for (const mention of findResourceMentions(message)) {
    if (!known.has(mention.server)) {
      notices.push(`@${mention.server}:${mention.uri}: there is no connected MCP server "${mention.server}"; nothing was attached.`);
      continue;
    }
    try {
      const content = await source.readResourceText({ ...mention, signal });
      attached.push(`<mcp_resource server="${mention.server}" uri="${mention.uri}">\n${content}\n</mcp_resource>`);
    } catch (error) {
      attached.push(`<note>@${mention.server}:${mention.uri} could not be read: ${(error as Error).message}</note>`);
    }
  }
  if (attached.length === 0) return { text: message, notices };
  const marker = "\n\n<attached_context>";
  const closing = "\n</attached_context>";
  // Alongside the file mentions the front end attached, or in a block of its own.
  if (message.includes(marker) && message.endsWith(closing)) return { text: `${message.slice(0, -closing.length)}\n${attached.join("\n")}${closing}`, notices };
  return { text: `${message}${marker}\n${attached.join("\n")}${closing}`, notices };
}
