import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expandCustomCommand, loadCustomCommands } from "./custom-commands.js";
import { parseFrontMatter } from "./front-matter.js";

let root: string;
let workspace: string;
let userConfigDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-commands-"));
  workspace = join(root, "ws");
  userConfigDir = join(root, "config");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

describe("custom commands and workflows are read from every commands folder", () => {
  it("front matter: strings, quoted strings, inline and dash lists", () => {
    const parsed = parseFrontMatter('---\ndescription: "Review a file"\nargument-hint: [file] [focus]\nallowed-tools: Bash(git diff:*), Read\npaths:\n  - "src/**/*.ts"\n  - lib/*.js\n---\nBody $1\n');
    expect(parsed.attributes).toEqual({ description: "Review a file", "argument-hint": "[file] [focus]", "allowed-tools": "Bash(git diff:*), Read", paths: ["src/**/*.ts", "lib/*.js"] });
    expect(parsed.body).toBe("Body $1\n");
    expect(parseFrontMatter("---\ntags: [a, 'b']\n---\n").attributes).toEqual({ tags: ["a", "b"] });
    expect(parseFrontMatter("no front matter").body).toBe("no front matter");
  });

  it("reads .cairn/commands, .claude/commands (sub-folders as folder:name), Cline workflows and the user's folder; $ARGUMENTS and $1..$9", async () => {
    await put(join(workspace, ".cairn", "commands", "review.md"), "---\ndescription: Review code\nargument-hint: <file> <focus>\nmodel: claude-test-model\n---\nReview $1 with a focus on $2. All: $ARGUMENTS\n");
    await put(join(workspace, ".claude", "commands", "frontend", "test.md"), "Run the frontend tests for $ARGUMENTS\n");
    await put(join(workspace, ".claude", "commands", "review.md"), "shadowed by cairn's own\n");
    await put(join(workspace, ".clinerules", "workflows", "release.md"), "# Release workflow\n\n1. Bump the version\n2. Tag it\n");
    await put(join(userConfigDir, "commands", "standup.md"), "---\ndescription: Write my standup\n---\nSummarise yesterday's commits.\n");
    const commands = await loadCustomCommands({ workspace, userConfigDir });
    expect(commands.map((command) => `${command.name}:${command.kind}:${command.scope}`)).toEqual(["review:command:project", "frontend:test:command:project", "release:workflow:project", "standup:command:user"]);
    expect(commands[0]).toMatchObject({ description: "Review code", argumentHint: "<file> <focus>", model: "claude-test-model" });
    expect(commands[2]?.description).toBe("Release workflow");

    expect(expandCustomCommand('/review src/a.ts "error handling"', commands)?.task).toBe('Review src/a.ts with a focus on error handling. All: src/a.ts "error handling"');
    expect(expandCustomCommand("/frontend:test the login page", commands)?.task).toBe("Run the frontend tests for the login page");
    // Cline types workflows with their extension; without placeholders the arguments are appended.
    expect(expandCustomCommand("/release.md 2.0", commands)?.task).toBe("# Release workflow\n\n1. Bump the version\n2. Tag it\n\n2.0");
    expect(expandCustomCommand("/unknown x", commands)).toBeUndefined();
    expect(expandCustomCommand("/tmp/file is a path", commands)).toBeUndefined();
  });
});
