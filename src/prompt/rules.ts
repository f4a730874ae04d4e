/**
 * The rules the user gave: `AGENTS.md` and `CLAUDE.md` at the root,
 * Claude Code's other memory files (`.claude/CLAUDE.md`, `CLAUDE.local.md`,
 * the user's `~/.claude/CLAUDE.md`), `.clinerules` (a file or a folder),
 * `.cairn/rules/`, and a global folder;
 * conditional rules (front matter `paths:` globs) only while a matching file
 * is in play; the nearest nested `AGENTS.md` / `CLAUDE.md` of each touched
 * file; `@file` imports inside any of them; and per-task toggles.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { attributeList, parseFrontMatter } from "../extensions/front-matter.js";
import { globMatches } from "./glob-match.js";
import { resolveImports } from "./rule-imports.js";

export interface RuleFile {
  /** Where it came from, shown to the model and used to toggle it. */
  source: string;
  text: string;
  /** `always`, `conditional` (front matter `paths:`), or `nested` (a sub-folder's AGENTS.md). */
  kind?: "always" | "conditional" | "nested";
  /** The globs of a conditional rule. */
  paths?: string[];
}

/** What decides which rules apply now: the files the task touched, and the rules switched off. */
export interface RuleScope {
  touched?: ReadonlySet<string>;
  disabled?: ReadonlySet<string>;
}

const maxRuleBytes = 100_000;
const nestedRuleNames = ["AGENTS.md", "CLAUDE.md"];

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

async function ruleFrom(path: string, source: string, kind: "always" | "nested"): Promise<RuleFile | undefined> {
  const raw = await readIfFile(path);
  if (raw === undefined || raw.trim().length === 0) return undefined;
  const { attributes, body } = parseFrontMatter(raw);
  const paths = attributeList(attributes, "paths");
  let text = body;
  for (const imported of await resolveImports(body, path)) text += `\n\n### imported from ${imported.path}\n\n${imported.text.trim()}`;
  if (text.trim().length === 0) return undefined;
  return paths.length > 0 && kind === "always" ? { source, text, kind: "conditional", paths } : { source, text, kind };
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
    if (name.startsWith(".") || name === "hooks" || name === "workflows") continue;
    const rule = await ruleFrom(join(folder, name), `${label}/${name}`, "always");
    if (rule) files.push(rule);
  }
  return files;
}

/** Where the rules are: the workspace, the user's rules folder, and Claude Code's user folder (`~/.claude`). */
export interface RulePlaces {
  workspace: string;
  globalRulesDir?: string;
  claudeUserDir?: string;
}

/** Claude Code's memory files at the project's root besides CLAUDE.md: its folder's, and the user's own uncommitted one. */
const claudeProjectMemory = [".claude/CLAUDE.md", "CLAUDE.local.md"];

/** Every rule file that may apply (root, .clinerules, .cairn/rules, global), conditional ones included. */
export async function discoverRules(options: RulePlaces): Promise<RuleFile[]> {
  const rules: RuleFile[] = [];
  if (options.globalRulesDir) rules.push(...(await readFolder(options.globalRulesDir, "global rules")));
  // Claude Code's user memory, read for every project as Claude Code does.
  const userMemory = options.claudeUserDir === undefined ? undefined : await ruleFrom(join(options.claudeUserDir, "CLAUDE.md"), "~/.claude/CLAUDE.md", "always");
  if (userMemory) rules.push(userMemory);
  for (const name of [...nestedRuleNames, ...claudeProjectMemory]) {
    const rule = await ruleFrom(join(options.workspace, name), name, "always");
    if (rule) rules.push(rule);
  }
  const clinerules = join(options.workspace, ".clinerules");
  const single = await ruleFrom(clinerules, ".clinerules", "always");
  if (single) rules.push(single);
  else rules.push(...(await readFolder(clinerules, ".clinerules")));
  rules.push(...(await readFolder(join(options.workspace, ".cairn", "rules"), ".cairn/rules")));
  return rules;
}

function inside(workspace: string, path: string): boolean {
  const rel = relative(workspace, path);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep);
}

/** Whether a touched path is a folder (`list_files`); asked once per path, since that rarely changes. */
const folderPaths = new Map<string, boolean>();

async function isFolder(path: string): Promise<boolean> {
  let known = folderPaths.get(path);
  if (known === undefined) {
    known = (await stat(path).catch(() => undefined))?.isDirectory() === true;
    if (folderPaths.size > 10_000) folderPaths.clear();
    folderPaths.set(path, known);
  }
  return known;
}

/** The nearest AGENTS.md (or CLAUDE.md) between each touched file's folder and the root (the root's own are always read). */
export async function nestedRules(workspace: string, touched: ReadonlySet<string>): Promise<RuleFile[]> {
  // Many touched files share a few folders: each folder is looked at once.
  const starts = new Set<string>();
  for (const path of touched) {
    const absolute = resolve(workspace, path);
    if (!inside(workspace, absolute)) continue;
    starts.add((await isFolder(absolute)) ? absolute : dirname(absolute));
  }
  const found = new Map<string, RuleFile>();
  const checked = new Map<string, RuleFile | null>();
  for (const start of starts) {
    let folder = start;
    while (inside(workspace, folder)) {
      let rule = checked.get(folder);
      if (rule === undefined) {
        rule = null;
        for (const name of nestedRuleNames) {
          const source = relative(workspace, join(folder, name)).split(sep).join("/");
          rule = (await ruleFrom(join(folder, name), source, "nested")) ?? null;
          if (rule) break;
        }
        checked.set(folder, rule);
      }
      if (rule) {
        found.set(rule.source, rule);
        break;
      }
      folder = dirname(folder);
    }
  }
  return [...found.values()].sort((a, b) => a.source.localeCompare(b.source));
}

function conditionApplies(rule: RuleFile, workspace: string, touched: ReadonlySet<string>): boolean {
  if (rule.kind !== "conditional") return true;
  for (const path of touched) {
    const rel = relative(workspace, resolve(workspace, path)).split(sep).join("/");
    if ((rule.paths ?? []).some((glob) => globMatches(glob, rel))) return true;
  }
  return false;
}

export interface ListedRule {
  rule: RuleFile;
  /** Its condition holds (always, or a matching file is in play). */
  applies: boolean;
  enabled: boolean;
}

/** Every rule with whether it applies now and whether it is switched on (for `/rules`). */
export async function listRules(options: RulePlaces & RuleScope): Promise<ListedRule[]> {
  const touched = options.touched ?? new Set<string>();
  const disabled = options.disabled ?? new Set<string>();
  const all = [...(await discoverRules(options)), ...(await nestedRules(options.workspace, touched))];
  return all.map((rule) => ({ rule, applies: conditionApplies(rule, options.workspace, touched), enabled: !disabled.has(rule.source) }));
}

/** The rules that go into the system prompt now. */
export async function loadRules(options: RulePlaces & RuleScope): Promise<RuleFile[]> {
  return (await listRules(options)).filter((listed) => listed.applies && listed.enabled).map((listed) => listed.rule);
}

export function rulesSection(rules: RuleFile[]): string {
  if (rules.length === 0) return "";
  const parts = rules.map((rule) => {
    const note = rule.kind === "nested" ? " (applies to files in its folder)" : rule.kind === "conditional" ? ` (applies to ${(rule.paths ?? []).join(", ")})` : "";
    return `## ${rule.source}${note}\n\n${rule.text.trim()}`;
  });
  return `# USER'S RULES\n\nThe user gave these instructions. Follow them unless they conflict with the task itself.\n\n${parts.join("\n\n")}`;
}
