import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bashSpecifierMatches, parseRule, PermissionRules, rulesFromBlock, RuleSyntaxError } from "./permission-rules.js";
import { splitRuleList } from "./permission-sources.js";

const workspace = "/work/project";
const rules = (block: { allow?: string[]; ask?: string[]; deny?: string[] }) => new PermissionRules(rulesFromBlock(block, "test"), workspace);

describe("permission rules in Claude Code's format", () => {
  it("parses tools, specifiers and mcp names; rejects what is not a rule", () => {
    expect(parseRule("Bash(git log:*)", "allow", "s")).toMatchObject({ tool: "Bash", specifier: "git log:*" });
    expect(parseRule("Bash", "deny", "s")).toMatchObject({ tool: "Bash", specifier: undefined });
    expect(parseRule("Write(docs/**)", "allow", "s")).toMatchObject({ tool: "Edit", specifier: "docs/**" });
    expect(parseRule("mcp__github__get_issue", "allow", "s")).toMatchObject({ tool: "mcp" });
    expect(() => parseRule("Bash(git log", "allow", "s")).toThrow(RuleSyntaxError);
    expect(splitRuleList("Bash(git log:*) Read(src/**),Bash(npm test)")).toEqual(["Bash(git log:*)", "Read(src/**)", "Bash(npm test)"]);
  });

  it("a bare tool name (a custom tool's, hyphens and digits included) rules that tool alone; deny wins", () => {
    const named = rules({ allow: ["lookup-ticket", "2fa_check(*)"], deny: ["lookup_ticket"] });
    expect(named.forTool("lookup-ticket")).toMatchObject({ decision: "allow", rule: { text: "lookup-ticket" } });
    expect(named.forTool("2fa_check")).toMatchObject({ decision: "allow" });
    expect(named.forTool("lookup_ticket")).toMatchObject({ decision: "deny" });
    expect(named.forTool("lookup")).toBeUndefined();
    expect(rules({ allow: ["lookup(abc)"] }).forTool("lookup")).toBeUndefined();
    expect(() => parseRule("-x", "allow", "s")).toThrow(RuleSyntaxError);
  });

  it("Bash specifiers: prefix on whole words, exact text, globs; unknown words match only deny and ask rules", () => {
    expect(bashSpecifierMatches("git log:*", ["git", "log"], false)).toBe(true);
    expect(bashSpecifierMatches("git log:*", ["git", "logout"], false)).toBe(false);
    expect(bashSpecifierMatches("npm test", ["npm", "test"], false)).toBe(true);
    expect(bashSpecifierMatches("npm test", ["npm", "test", "--", "-u"], false)).toBe(false);
    expect(bashSpecifierMatches("git * main", ["git", "push", "origin", "main"], false)).toBe(true);
    expect(bashSpecifierMatches("git push:*", ["git", undefined], false)).toBe(false);
    expect(bashSpecifierMatches("git push:*", ["git", undefined], true)).toBe(true);
  });

  it("Read and Edit take gitignore patterns from the workspace, ~/ and //", () => {
    const set = rules({ allow: ["Read(src/**)", "Edit(~/notes/*.md)", "Read(//etc/hosts)"], deny: ["Read(src/secret/**)"] });
    expect(set.forPath("Read", join(workspace, "src/a/b.ts"))?.decision).toBe("allow");
    expect(set.forPath("Read", join(workspace, "src/secret/key"))?.decision).toBe("deny");
    expect(set.forPath("Read", join(workspace, "docs/x.md"))).toBeUndefined();
    expect(set.forPath("Edit", join(homedir(), "notes/today.md"))?.decision).toBe("allow");
    expect(set.forPath("Read", "/etc/hosts")?.decision).toBe("allow");
    expect(set.forPath("Read", "/etc/passwd")).toBeUndefined();
  });

  it("WebFetch by domain (and subdomains) and MCP tools by server or tool; deny wins", () => {
    const set = rules({ allow: ["WebFetch(domain:example.com)", "mcp__github"], deny: ["mcp__github__delete_repo"] });
    expect(set.forWeb("https://docs.example.com/page")?.decision).toBe("allow");
    expect(set.forWeb("https://example.org/")).toBeUndefined();
    expect(set.forMcp("github", "get_issue")?.decision).toBe("allow");
    expect(set.forMcp("github", "delete_repo")?.decision).toBe("deny");
    expect(set.forMcp("gitlab", "get_issue")).toBeUndefined();
  });

  it("WebFetch(domain:example.com) matches the domain and its subdomains only, however the address spells it", () => {
    const set = rules({ deny: ["WebFetch(domain:example.com)"] });
    for (const url of ["https://example.com/", "https://EXAMPLE.com/x", "https://example.com./", "https://a.b.example.com:8443/", "http://user@example.com/"]) {
      expect(set.forWeb(url)?.decision, url).toBe("deny");
    }
    for (const url of ["https://evilexample.com/", "https://example.com.evil.net/", "https://example.com@evil.net/", "https://evil.net/?example.com", "https://notexample.com./"]) {
      expect(set.forWeb(url), url).toBeUndefined();
    }
    // A rule written with a trailing dot or in capitals means the same domain.
    expect(rules({ deny: ["WebFetch(domain:Example.COM.)"] }).forWeb("https://www.example.com/")?.decision).toBe("deny");
  });
});
