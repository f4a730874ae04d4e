import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

export interface RuleFile {
  /** Where it came from, shown to the model. */
  source: string;
  text: string;
}

const maxRuleBytes = 100_000;

async function readIfFile(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    const text = await readFile(path, "utf8");
    return text.length > maxRuleBytes ? `${text.slice(0, maxRuleBytes)}\n[truncated]` : text;
  } catch {
    return undefined;
  }
}

async function readFolder(folder: string, label: string): Promise<RuleFile[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).sort();
  } catch {
    return [];
  }
  const files: RuleFile[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const text = await readIfFile(join(folder, name));
    if (text !== undefined && text.trim().length > 0) files.push({ source: `${label}/${name}`, text });
  }
  return files;
}

/**
 * The rules the user gave: project `AGENTS.md`, `.clinerules` (a file or a
 * folder of files), `CLAUDE.md`, and every file of a global rules folder.
 */
export async function loadRules(options: { workspace: string; globalRulesDir?: string }): Promise<RuleFile[]> {
  const rules: RuleFile[] = [];
  if (options.globalRulesDir) rules.push(...(await readFolder(options.globalRulesDir, "global rules")));
  for (const name of ["AGENTS.md", "CLAUDE.md"]) {
    const text = await readIfFile(join(options.workspace, name));
    if (text !== undefined && text.trim().length > 0) rules.push({ source: name, text });
  }
  const clinerules = join(options.workspace, ".clinerules");
  const single = await readIfFile(clinerules);
  if (single !== undefined) rules.push({ source: ".clinerules", text: single });
  else rules.push(...(await readFolder(clinerules, ".clinerules")));
  return rules;
}

export function rulesSection(rules: RuleFile[]): string {
  if (rules.length === 0) return "";
  const parts = rules.map((rule) => `## ${rule.source}\n\n${rule.text.trim()}`);
  return `# USER'S RULES\n\nThe user gave these instructions. Follow them unless they conflict with the task itself.\n\n${parts.join("\n\n")}`;
}
