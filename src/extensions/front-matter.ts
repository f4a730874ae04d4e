/**
 * The YAML front matter of Markdown command, skill and rule files, as Claude
 * Code and Cline write it: `key: value`, quoted strings, `[a, b]` lists and
 * `- item` lists. Not a YAML parser: anything else stays text.
 */
export type FrontMatterValue = string | string[];

export interface MarkdownWithFrontMatter {
  attributes: Record<string, FrontMatterValue>;
  /** Each single-line value as written (an argument hint like `[file] [focus]` is text, not a list). */
  raw: Record<string, string>;
  body: string;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && ((trimmed.startsWith('"') && trimmed.endsWith('"')) || (trimmed.startsWith("'") && trimmed.endsWith("'")))) {
    return trimmed.slice(1, -1);
  }
  return trimmed;
}

function inlineList(value: string): string[] | undefined {
  const trimmed = value.trim();
  if (!trimmed.startsWith("[") || !trimmed.endsWith("]") || /[[\]]/.test(trimmed.slice(1, -1))) return undefined;
  return trimmed
    .slice(1, -1)
    .split(",")
    .map(unquote)
    .filter((item) => item !== "");
}

export function parseFrontMatter(text: string): MarkdownWithFrontMatter {
  const normalised = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(normalised);
  if (!match) return { attributes: {}, raw: {}, body: normalised };
  const attributes: Record<string, FrontMatterValue> = {};
  const raw: Record<string, string> = {};
  let listKey: string | undefined;
  for (const line of (match[1] ?? "").split("\n")) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      const current = attributes[listKey];
      attributes[listKey] = [...(Array.isArray(current) ? current : []), unquote(item[1] ?? "")];
      continue;
    }
    const entry = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (!entry) continue;
    const key = entry[1] ?? "";
    const value = entry[2] ?? "";
    listKey = undefined;
    if (value.trim() === "") {
      listKey = key;
      attributes[key] = [];
      continue;
    }
    raw[key] = unquote(value);
    attributes[key] = inlineList(value) ?? unquote(value);
  }
  return { attributes, raw, body: normalised.slice(match[0].length) };
}

export function attributeText(raw: Record<string, string>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = raw[key];
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

export function attributeList(attributes: Record<string, FrontMatterValue>, key: string): string[] {
  const value = attributes[key];
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}
