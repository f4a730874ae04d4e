/**
 * Agent types for subagents (issue #17): the built-in `explore` and `general`,
 * and user-defined ones from Markdown files with front matter (name,
 * description, tools, model) in `.cairn/agents/`, the user's config folder
 * (`agents/`), and Claude Code's `~/.claude/agents/` and `.claude/agents/`
 * (Claude Code's format, read unchanged).
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";

export interface AgentType {
  name: string;
  description: string;
  /** cairn tool names the agent may use (attempt_completion is always added); undefined: the parent's tools. */
  tools?: string[];
  /** A model id for its own provider; undefined or "inherit": the parent's model. */
  model?: string;
  /** Only tools that do not change anything, commands only when the rules allow them as read-only. */
  readOnly: boolean;
  /** Instructions from the agent file's body, added to the child's system prompt. */
  instructions?: string;
  /** Where it was defined (for messages); "built-in" for the two built-ins. */
  source: string;
}

/** Tools that never change the workspace; the explore agent gets these. */
export const readOnlyToolNames = ["read_file", "search_files", "list_files", "list_code_definition_names", "lsp", "execute_command", "attempt_completion"];

export const builtinAgentTypes: AgentType[] = [
  {
    name: "explore",
    description: "Read-only: searches and reads the workspace and reports what it found. Cannot edit files; runs only commands the rules allow as read-only.",
    tools: readOnlyToolNames,
    readOnly: true,
    source: "built-in",
  },
  {
    name: "general",
    description: "General-purpose: the parent's tools, for a self-contained piece of work.",
    readOnly: false,
    source: "built-in",
  },
];

/** Claude Code's tool names to cairn's. */
const claudeToolNames: Record<string, string[]> = {
  read: ["read_file"],
  write: ["write_to_file"],
  edit: ["replace_in_file"],
  multiedit: ["replace_in_file"],
  bash: ["execute_command"],
  grep: ["search_files"],
  glob: ["list_files"],
  ls: ["list_files"],
  webfetch: ["web_fetch"],
  notebookread: ["read_file"],
};

const mutatingToolNames = new Set(["write_to_file", "replace_in_file", "execute_command", "use_mcp_tool", "new_task"]);

export class AgentFileError extends Error {}

/** Front matter of `key: value` lines between two `---` lines; lists as `[a, b]`, `a, b` or `- a` lines. */
export function parseAgentFile(text: string, source: string, fallbackName?: string): AgentType {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new AgentFileError(`${source}: an agent file starts with front matter between two "---" lines (name, description, tools, model)`);
  const fields = new Map<string, string | string[]>();
  let listKey: string | undefined;
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      const current = fields.get(listKey);
      fields.set(listKey, [...(Array.isArray(current) ? current : []), unquote(item[1] ?? "")]);
      continue;
    }
    const pair = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) throw new AgentFileError(`${source}: cannot read the front matter line "${line}"`);
    const key = (pair[1] ?? "").toLowerCase();
    const value = (pair[2] ?? "").trim();
    listKey = value === "" ? key : undefined;
    fields.set(key, value === "" ? [] : unquote(value));
  }
  const text1 = (key: string): string | undefined => {
    const value = fields.get(key);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const name = text1("name") ?? fallbackName;
  const description = text1("description");
  if (name === undefined || !/^[A-Za-z0-9][\w-]*$/.test(name)) throw new AgentFileError(`${source}: "name" is required (letters, digits, "-" and "_")`);
  if (description === undefined) throw new AgentFileError(`${source}: "description" is required`);
  const rawTools = fields.get("tools");
  const tools = rawTools === undefined ? undefined : mapTools(Array.isArray(rawTools) ? rawTools : splitList(rawTools));
  const model = text1("model");
  const instructions = (match[2] ?? "").trim();
  return {
    name,
    description,
    ...(tools === undefined ? {} : { tools: [...new Set([...tools, "attempt_completion"])] }),
    ...(model === undefined || model === "inherit" ? {} : { model }),
    readOnly: tools !== undefined && !tools.some((tool) => mutatingToolNames.has(tool) && tool !== "execute_command"),
    ...(instructions === "" ? {} : { instructions }),
    source,
  };
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return /^(["']).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}

function splitList(value: string): string[] {
  const inner = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  return inner
    .split(",")
    .map(unquote)
    .filter((item) => item !== "");
}

function mapTools(names: string[]): string[] {
  return names.flatMap((name) => claudeToolNames[name.toLowerCase()] ?? [name]);
}

/**
 * The agent types in force: built-ins, then the user's folders (cairn's,
 * then `~/.claude/agents/`), then the project's `.claude/agents/` and
 * `.cairn/agents/` (later ones win by name).
 * A damaged file is skipped with a warning, never fatal.
 */
export async function loadAgentTypes(options: {
  workspace: string;
  userConfigDir: string;
  claudeUserDir?: string;
  /** Enabled plugins' agent folders and files (src/plugins): each agent is named `plugin:name`, as in Claude Code. */
  plugins?: ReadonlyArray<{ plugin: string; paths: readonly string[] }>;
}): Promise<{ types: AgentType[]; warnings: string[] }> {
  const byName = new Map<string, AgentType>(builtinAgentTypes.map((type) => [type.name, type]));
  const warnings: string[] = [];
  const folders = [
    join(options.userConfigDir, "agents"),
    ...(options.claudeUserDir === undefined ? [] : [join(options.claudeUserDir, "agents")]),
    join(options.workspace, ".claude", "agents"),
    join(options.workspace, ".cairn", "agents"),
  ];
  const add = async (path: string, plugin?: string): Promise<void> => {
    try {
      const type = parseAgentFile(await readFile(path, "utf8"), path, plugin === undefined ? undefined : basename(path, ".md"));
      const name = plugin === undefined ? type.name : `${plugin}:${type.name}`;
      if (plugin === undefined || !byName.has(name)) byName.set(name, { ...type, name });
    } catch (error) {
      warnings.push(`agent type skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const agentFiles = async (folder: string): Promise<string[]> => {
    if (folder.endsWith(".md")) return [folder];
    const names = await readdir(folder).catch(() => [] as string[]);
    return names
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => join(folder, name));
  };
  for (const folder of folders) for (const path of await agentFiles(folder)) await add(path);
  for (const source of options.plugins ?? []) for (const folder of source.paths) for (const path of await agentFiles(folder)) await add(path, source.plugin);
  return { types: [...byName.values()], warnings };
}

/** The system prompt section listing the agent types a subagent may name. */
export function agentTypesSection(types: AgentType[]): string {
  const lines = types.map((type) => `- ${type.name}: ${type.description}`);
  return `# SUBAGENTS\n\nuse_subagents runs focused helpers, each with its own fresh conversation, in parallel; each returns one report. Give each a complete, self-contained prompt. Agent types:\n${lines.join("\n")}`;
}
