/**
 * Skills: folders with a `SKILL.md` (Claude Code's layout) in `.cairn/skills/`,
 * `.claude/skills/`, the user's config folder and Claude Code's user folder
 * (`~/.claude/skills/`). Only each skill's name and
 * description go into the system prompt; `use_skill` loads the body (and lists
 * the skill's files) when the model asks for it.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { attributeText, parseFrontMatter } from "./front-matter.js";

export interface Skill {
  name: string;
  description: string;
  folder: string;
  scope: "project" | "user";
}

export interface SkillFolders {
  workspace: string;
  userConfigDir: string;
  /** Claude Code's user folder (`~/.claude`). */
  claudeUserDir?: string;
  /** Enabled plugins' skill folders (src/plugins): each skill is named `plugin:name`, as in Claude Code. */
  plugins?: ReadonlyArray<{ plugin: string; folders: readonly string[] }>;
}

const maxListedFiles = 200;

async function readSkill(folder: string, scope: Skill["scope"]): Promise<Skill | undefined> {
  const text = await readFile(join(folder, "SKILL.md"), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const { raw, body } = parseFrontMatter(text);
  const name = attributeText(raw, "name") ?? folder.split("/").pop() ?? "skill";
  const description =
    attributeText(raw, "description") ??
    body
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.replace(/^#+\s*/, "") ??
    "";
  return { name, description, folder, scope };
}

async function skillsIn(parent: string, scope: Skill["scope"]): Promise<Skill[]> {
  let entries;
  try {
    entries = await readdir(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const skills: Skill[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const skill = await readSkill(join(parent, entry.name), scope);
    if (skill) skills.push(skill);
  }
  return skills;
}

/** Every skill; the project's win over the user's of the same name. */
export async function loadSkills(folders: SkillFolders): Promise<Skill[]> {
  const all = [
    ...(await skillsIn(join(folders.workspace, ".cairn", "skills"), "project")),
    ...(await skillsIn(join(folders.workspace, ".claude", "skills"), "project")),
    ...(await skillsIn(join(folders.userConfigDir, "skills"), "user")),
    ...(folders.claudeUserDir === undefined ? [] : await skillsIn(join(folders.claudeUserDir, "skills"), "user")),
  ];
  for (const source of folders.plugins ?? []) {
    for (const folder of source.folders) all.push(...(await skillsIn(folder, "user")).map((skill) => ({ ...skill, name: `${source.plugin}:${skill.name}` })));
  }
  const byName = new Map<string, Skill>();
  for (const skill of all) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  return [...byName.values()];
}

async function listFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (current: string, depth: number): Promise<void> => {
    if (files.length >= maxListedFiles || depth > 4) return;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || files.length >= maxListedFiles) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else files.push(relative(folder, path));
    }
  };
  await walk(folder, 0);
  return files;
}

/** What `use_skill` returns: the instructions, and where the skill's other files are. */
export async function loadSkillBody(skill: Skill): Promise<string> {
  const file = join(skill.folder, "SKILL.md");
  const info = await stat(file);
  const text = await readFile(file, "utf8");
  const { body } = parseFrontMatter(info.size > 200_000 ? text.slice(0, 200_000) : text);
  const files = (await listFiles(skill.folder)).filter((path) => path !== "SKILL.md");
  const listing = files.length === 0 ? "" : `\n\nThe skill's files (read them with read_file when the instructions need them), in ${skill.folder}:\n${files.map((path) => `- ${path}`).join("\n")}`;
  return `<skill name="${skill.name}">\n${body.trim()}\n</skill>${listing}`;
}

/** The system prompt's list: names and descriptions only. */
export function skillsSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  return `# SKILLS\n\nSkills are instructions for particular jobs. When a task matches one, load it with the use_skill tool before you start, and follow it.\n\n${lines.join("\n")}`;
}
