import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentFileError, agentTypesSection, loadAgentTypes, parseAgentFile } from "./agent-types.js";

let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = undefined;
});

describe("agent types are read from Claude Code agent files in every agents folder", () => {
  it("reads a Claude Code agent file unchanged: Claude tool names mapped, model inherit, body as instructions", () => {
    const type = parseAgentFile(
      "---\nname: code-reviewer\ndescription: Expert code review specialist. Use after writing code.\ntools: Read, Grep, Glob, Bash\nmodel: inherit\n---\n\nYou are a senior reviewer.\n",
      "/x/.claude/agents/code-reviewer.md",
    );
    expect(type).toMatchObject({ name: "code-reviewer", description: "Expert code review specialist. Use after writing code.", instructions: "You are a senior reviewer.", readOnly: true });
    expect(type.tools).toEqual(["read_file", "search_files", "list_files", "execute_command", "attempt_completion"]);
    expect(type.model).toBeUndefined();
  });

  it("accepts YAML lists and quoted values; a type that may write is not read-only; a named model is kept", () => {
    const type = parseAgentFile("---\nname: 'writer'\ndescription: \"Writes docs\"\ntools:\n  - read_file\n  - Write\nmodel: claude-haiku-4-5\n---\n", "writer.md");
    expect(type.tools).toEqual(["read_file", "write_to_file", "attempt_completion"]);
    expect(type.readOnly).toBe(false);
    expect(type.model).toBe("claude-haiku-4-5");
    expect(parseAgentFile("---\nname: all\ndescription: every tool\n---\n", "all.md").tools).toBeUndefined();
  });

  it("a file without front matter or a name gets a clear error naming the file", () => {
    expect(() => parseAgentFile("just text", "/a/b.md")).toThrow(AgentFileError);
    expect(() => parseAgentFile("just text", "/a/b.md")).toThrow(/\/a\/b\.md: an agent file starts with front matter/);
    expect(() => parseAgentFile("---\ndescription: x\n---\n", "/a/c.md")).toThrow(/"name" is required/);
  });

  it("loads built-ins, the user's folder, .claude/agents and .cairn/agents (later wins); a damaged file is skipped with a warning", async () => {
    root = await mkdtemp(join(tmpdir(), "cairn-agents-"));
    const workspace = join(root, "workspace");
    const userConfigDir = join(root, "config");
    await mkdir(join(userConfigDir, "agents"), { recursive: true });
    await mkdir(join(workspace, ".claude", "agents"), { recursive: true });
    await mkdir(join(workspace, ".cairn", "agents"), { recursive: true });
    await writeFile(join(userConfigDir, "agents", "mine.md"), "---\nname: mine\ndescription: from the user\n---\n");
    await writeFile(join(workspace, ".claude", "agents", "shared.md"), "---\nname: shared\ndescription: from claude\n---\n");
    await writeFile(join(workspace, ".cairn", "agents", "shared.md"), "---\nname: shared\ndescription: from cairn\n---\n");
    await writeFile(join(workspace, ".cairn", "agents", "broken.md"), "no front matter");
    const { types, warnings } = await loadAgentTypes({ workspace, userConfigDir });
    expect(types.map((type) => type.name)).toEqual(["explore", "general", "mine", "shared"]);
    expect(types.find((type) => type.name === "shared")?.description).toBe("from cairn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("broken.md");
    expect(agentTypesSection(types)).toContain("- mine: from the user");
  });
});
