import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeMentionPath, expandMentions, findMentions } from "./mentions.js";
import { splitAttachedContext } from "../ui/tui/attached-context.js";

let root: string;
let workspace: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-mentions-"));
  workspace = join(root, "workspace");
  await mkdir(join(workspace, "src"), { recursive: true });
  await writeFile(join(workspace, "src", "main.ts"), "export const answer = 42;\n");
  await writeFile(join(workspace, "secret.env"), "KEY=1\n");
  await writeFile(join(workspace, ".cairnignore"), "secret.env\n");
  await writeFile(join(root, "outside.txt"), "outside\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("mentions attach files, folders, web pages and git changes", () => {
  it("finds @path, @url and @git-changes, not e-mail addresses", () => {
    expect(findMentions("look at @src/main.ts, @https://example.com/x and @git-changes; mail me at a@b.c")).toEqual(["src/main.ts", "https://example.com/x", "git-changes"]);
  });

  it("@file attaches its content, @folder its listing; the workspace guard and the ignore file hold", async () => {
    const text = await expandMentions("explain @src/main.ts and @src and @secret.env and @../outside.txt", { workspace });
    expect(text.startsWith("explain @src/main.ts")).toBe(true);
    expect(text).toContain('<file path="src/main.ts">\nexport const answer = 42;');
    expect(text).toContain('<folder path="src">\nmain.ts');
    expect(text).not.toContain("KEY=1");
    expect(text).toContain("hidden by the workspace's .cairnignore");
    expect(text).not.toContain("outside\n</file>");
    expect(text).toContain("outside the workspace");
    expect(splitAttachedContext(text)).toEqual({ typed: "explain @src/main.ts and @src and @secret.env and @../outside.txt", attached: ["src/main.ts", "src"] });
  });

  it("@git-changes attaches the working-tree diff and untracked files", async () => {
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "src/main.ts"], { cwd: workspace });
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "first"], { cwd: workspace });
    await writeFile(join(workspace, "src", "main.ts"), "export const answer = 43;\n");
    await writeFile(join(workspace, "new.txt"), "new\n");
    const text = await expandMentions("review @git-changes", { workspace });
    expect(text).toContain("-export const answer = 42;");
    expect(text).toContain("+export const answer = 43;");
    expect(text).toMatch(/Untracked files:[\s\S]*new\.txt/);
    expect(text).not.toContain("secret.env");
  });

  it("@url fetches the page as text (loopback server)", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><body><h1>Guide</h1><p>Use the flag.</p></body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/guide`;
    try {
      const text = await expandMentions(`read @${url}`, { workspace });
      expect(text).toContain(`<url href="${url}">`);
      expect(text).toContain("Use the flag.");
    } finally {
      server.close();
    }
  });

  it("completes a partial path, leaving out ignored files", async () => {
    expect(await completeMentionPath("sr", workspace)).toEqual(["src/"]);
    expect(await completeMentionPath("src/m", workspace)).toEqual(["src/main.ts"]);
    expect(await completeMentionPath("sec", workspace)).toEqual([]);
  });
});
