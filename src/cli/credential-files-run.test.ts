/**
 * Files read_file refuses (credentials such as `.env.local`, files the ignore
 * file hides, files a Read rule denies) are refused by every tool that shows
 * file content: search_files and list_code_definition_names leave them out.
 * `.env.example` is no credential. Through the real CLI with --yes.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const tool = (name: string, params: Record<string, string>): string =>
  `<${name}>\n${Object.entries(params)
    .map(([key, value]) => `<${key}>${value}</${key}>`)
    .join("\n")}\n</${name}>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

/** The text of the last user message of request `index`: the result of the tool the answer before it called. */
function sentBy(index: number): string {
  const body = cli.server!.requests[index]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  const last = body?.messages?.at(-1);
  return last?.role === "user" ? JSON.stringify(last.content) : "";
}

describe("credential and ignored files stay out of every tool that shows content", () => {
  it("read_file refuses .env, .env.local and .env.production and reads .env.example; search_files leaves out exactly what read_file refuses", { timeout: 60_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    await writeFile(join(workspace, ".env"), "CANARY_MAIN=value-from-dot-env\n");
    await writeFile(join(workspace, ".env.local"), "CANARY_LOCAL=value-from-env-local\n");
    await writeFile(join(workspace, ".env.production"), "CANARY_PRODUCTION=value-from-env-production\n");
    await writeFile(join(workspace, ".env.example"), "CANARY_EXAMPLE=placeholder-from-example\n");
    await mkdir(join(workspace, "config"), { recursive: true });
    await writeFile(join(workspace, "config", ".env.staging"), "CANARY_STAGING=value-from-nested-env\n");
    await writeFile(join(workspace, "config", "settings.txt"), "CANARY_SETTINGS=ordinary-file\n");
    await writeFile(join(workspace, ".cairnignore"), "private/\n");
    await mkdir(join(workspace, "private"), { recursive: true });
    await writeFile(join(workspace, "private", "notes.txt"), "CANARY_IGNORED=value-from-ignored\n");
    // A link with an innocent name to a credential file: judged by where it points.
    await symlink(join(workspace, ".env"), join(workspace, "config", "innocent.txt"));
    await cli.startServer({
      turns: [
        { text: tool("read_file", { path: ".env.local" }) },
        { text: tool("read_file", { path: ".env.production" }) },
        { text: tool("read_file", { path: ".env.example" }) },
        // ripgrep skips hidden files unless a glob names them: this one does.
        { text: tool("search_files", { path: ".", regex: "CANARY", file_pattern: "*env*" }) },
        { text: tool("search_files", { path: ".", regex: "CANARY" }) },
        { text: tool("search_files", { path: "config", regex: "CANARY", file_pattern: "*" }) },
        { text: complete },
      ],
    });
    const result = await cli.run(["run", ...anthropicArgs(cli.server!), "--yes", "look around"]);
    expect(result.status, result.stderr).toBe(0);
    expect(sentBy(1)).toContain("holds credentials");
    expect(sentBy(1)).not.toContain("value-from-env-local");
    expect(sentBy(2)).toContain("holds credentials");
    expect(sentBy(2)).not.toContain("value-from-env-production");
    expect(sentBy(3)).toContain("placeholder-from-example");

    const searches = [sentBy(4), sentBy(5), sentBy(6)].join("\n");
    for (const secret of ["value-from-dot-env", "value-from-env-local", "value-from-env-production", "value-from-nested-env", "value-from-ignored"]) {
      expect(searches).not.toContain(secret);
    }
    expect(sentBy(4)).toContain("placeholder-from-example");
    // Nothing says a file was left out: that it matched would tell something about its content.
    expect(searches).not.toMatch(/\.env\.local|\.env\.production|\.env\.staging|innocent|private/);
    expect(sentBy(6)).toContain("ordinary-file");
    expect(result.stdout).not.toContain("value-from");
  });

  it("list_code_definition_names reads no file read_file refuses (a Read deny rule, a link to a credential)", { timeout: 60_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    await mkdir(join(workspace, "src"), { recursive: true });
    await writeFile(join(workspace, "src", "open.ts"), "export function openFunction() {}\n");
    await writeFile(join(workspace, "src", "denied.ts"), "export function deniedFunction() {}\n");
    // `.env.*` names a credential whatever its extension; a link to it is judged by where it points.
    await writeFile(join(workspace, ".env.local.ts"), "export function credentialFunction() {}\n");
    await symlink(join(workspace, ".env.local.ts"), join(workspace, "src", "helpers.ts"));
    await cli.startServer({ turns: [{ text: tool("list_code_definition_names", { path: "src" }) }, { text: complete }] });
    const result = await cli.run(["run", ...anthropicArgs(cli.server!), "--yes", "--disallowed-tools", "Read(src/denied.ts)", "outline"]);
    expect(result.status, result.stderr).toBe(0);
    expect(sentBy(1)).toContain("openFunction");
    expect(sentBy(1)).not.toContain("deniedFunction");
    expect(sentBy(1)).not.toContain("credentialFunction");
  });

  it("list_files shows names only and marks the files read_file refuses", { timeout: 60_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    await writeFile(join(workspace, ".env.local"), "CANARY=x\n");
    await writeFile(join(workspace, ".env.example"), "CANARY=y\n");
    await cli.startServer({ turns: [{ text: tool("list_files", { path: "." }) }, { text: complete }] });
    const result = await cli.run(["run", ...anthropicArgs(cli.server!), "--yes", "list"]);
    expect(result.status, result.stderr).toBe(0);
    expect(sentBy(1)).toMatch(/\.env\.local {2}\[read_file refuses it/);
    expect(sentBy(1)).toMatch(/\.env\.example\\n|\.env\.example"/);
  });
});
