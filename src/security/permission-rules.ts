/**
 * Permission rules in the format Claude Code users already write:
 * `permissions: { allow: [...], ask: [...], deny: [...] }` with entries such as
 * `Bash(git log:*)`, `Bash(npm test)`, `Read(src/**)`, `Edit(docs/**)`,
 * `WebFetch(domain:example.com)`, `mcp__server__tool`. Deny wins over ask over
 * allow, whatever the order or the source. cairn adds `Network(<command>)`
 * (allow or deny), matched like `Bash(...)`: the sandbox's network for the
 * commands it names (bubblewrap's network is all or nothing per command), and
 * `Network(domain:…)` / `Network(preset:…)`: the hosts cairn's proxy lets
 * sandboxed commands reach (network-domains.ts).
 */
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import ignore from "ignore";
import { domainSpecifierProblem, isDomainSpecifier } from "./network-domains.js";

export type RuleDecision = "allow" | "ask" | "deny";
export const ruleDecisions: readonly RuleDecision[] = ["deny", "ask", "allow"];

export type RuleTool = "Bash" | "Read" | "Edit" | "WebFetch" | "Network" | "Unsandboxed" | "mcp" | "other";

export interface PermissionRule {
  decision: RuleDecision;
  /** As written by the user. */
  text: string;
  tool: RuleTool;
  /** Inside the parentheses; undefined for a bare tool name (every use). */
  specifier: string | undefined;
  /** Where it came from: `user (~/.config/cairn/config.json)`, `project (…)`, `flag (--allowed-tools)`. */
  source: string;
}

export interface PermissionsBlock {
  allow?: string[] | undefined;
  ask?: string[] | undefined;
  deny?: string[] | undefined;
}

export class RuleSyntaxError extends Error {}

const toolNames: Record<string, RuleTool> = {
  Bash: "Bash",
  Read: "Read",
  Edit: "Edit",
  Write: "Edit",
  MultiEdit: "Edit",
  NotebookEdit: "Edit",
  WebFetch: "WebFetch",
  Network: "Network",
  Unsandboxed: "Unsandboxed",
};

export function parseRule(text: string, decision: RuleDecision, source: string): PermissionRule {
  const trimmed = text.trim();
  if (trimmed.startsWith("mcp__")) return { decision, text: trimmed, tool: "mcp", specifier: trimmed, source };
  // Tool names as the providers allow them (`[a-zA-Z0-9_-]`): custom tools of an embedding program are ruled by name.
  const match = /^([A-Za-z0-9_][A-Za-z0-9_-]*)(?:\((.*)\))?$/s.exec(trimmed);
  if (match === null || match[1] === undefined) {
    throw new RuleSyntaxError(`"${text}" is not a permission rule; write Tool or Tool(specifier), like Bash(git log:*) or Read(src/**)`);
  }
  const specifier = match[2] === undefined || match[2] === "" || match[2] === "*" ? undefined : match[2];
  const tool = toolNames[match[1]] ?? "other";
  if (tool === "Network" && decision === "ask") {
    throw new RuleSyntaxError(`"${text}": a Network rule allows or denies the sandbox's network to the commands it names; put it under allow or deny, not ask`);
  }
  if (tool === "Network" && isDomainSpecifier(specifier)) {
    const problem = domainSpecifierProblem(specifier ?? "");
    if (problem !== undefined) throw new RuleSyntaxError(`"${text}": ${problem}`);
  }
  if (tool === "Unsandboxed" && decision === "ask") {
    throw new RuleSyntaxError(`"${text}": an Unsandboxed rule lets the commands it names run outside the sandbox without asking (allow), or never (deny); without a rule cairn asks: put it under allow or deny`);
  }
  return { decision, text: trimmed, tool, specifier, source };
}

export function rulesFromBlock(block: PermissionsBlock | undefined, source: string): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const decision of ruleDecisions) {
    for (const text of block?.[decision] ?? []) rules.push(parseRule(text, decision, source));
  }
  return rules;
}

/** The strongest of several decisions: deny > ask > allow. */
export function strongest(decisions: Array<RuleDecision | undefined>): RuleDecision | undefined {
  for (const decision of ruleDecisions) if (decisions.includes(decision)) return decision;
  return undefined;
}

/**
 * Whether a Bash rule's specifier matches a command given as words.
 * `git log:*` matches `git log` and `git log --oneline` (whole words, never
 * `git logout`); `npm test` matches exactly; `git * main` is a glob over the
 * text. `words` holds `undefined` where a word is only known when it runs:
 * `cautious` (deny and ask rules) then counts it as matching.
 */
export function bashSpecifierMatches(specifier: string, words: Array<string | undefined>, cautious: boolean): boolean {
  const prefixForm = specifier.endsWith(":*");
  const body = prefixForm ? specifier.slice(0, -2) : specifier;
  const ruleWords = body
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (ruleWords.length === 0) return true;
  const hasGlob = !prefixForm && ruleWords.some((word) => word.includes("*"));
  if (!hasGlob) {
    if (!prefixForm && words.length !== ruleWords.length) return false;
    if (words.length < ruleWords.length) return false;
    return ruleWords.every((ruleWord, index) => {
      const word = words[index];
      return word === undefined ? cautious : word === ruleWord;
    });
  }
  if (words.some((word) => word === undefined)) return cautious;
  const pattern = ruleWords.map((word) => word.split("*").map(escapeRegex).join(".*")).join(" ");
  return new RegExp(`^${pattern}$`, "s").test(words.join(" "));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether a Read/Edit specifier matches a path (gitignore syntax). Relative
 * patterns and `/x` are taken from the workspace, `~/x` from home, `//x` is absolute.
 */
export function pathSpecifierMatches(specifier: string, absolutePath: string, workspace: string): boolean {
  let base = workspace;
  let pattern = specifier;
  if (pattern.startsWith("//")) {
    base = "/";
    pattern = pattern.slice(2);
  } else if (pattern === "~" || pattern.startsWith("~/")) {
    base = homedir();
    pattern = pattern.slice(2) || "**";
  } else if (pattern.startsWith("/")) {
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("./")) {
    pattern = pattern.slice(2);
  }
  const path = isAbsolute(absolutePath) ? absolutePath : resolve(workspace, absolutePath);
  const relativePath = relative(base, path);
  if (relativePath === "") return pattern === "**" || pattern === "";
  if (relativePath.startsWith("..") || isAbsolute(relativePath)) return false;
  return ignore().add(pattern).ignores(relativePath);
}

/** The host of an address as rules compare it: lower case, without the trailing dot of a fully qualified name (`example.com.`). */
export function domainOf(url: string): string | undefined {
  try {
    return normalDomain(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

function normalDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.+$/, "");
}

export class PermissionRules {
  private readonly list: PermissionRule[];

  constructor(
    rules: readonly PermissionRule[],
    private readonly workspace: string,
  ) {
    this.list = [...rules];
  }

  get rules(): readonly PermissionRule[] {
    return this.list;
  }

  /** A rule accepted during the task ("always allow") counts from the next call on. */
  add(rule: PermissionRule): void {
    this.list.push(rule);
  }

  /** These rules and one more, leaving these as they are (to try a rule before offering it). */
  with(rule: PermissionRule): PermissionRules {
    return new PermissionRules([...this.list, rule], this.workspace);
  }

  /** The decision for one command (given as words, `undefined` for unknown words) and the rule behind it. */
  forCommandWords(words: Array<string | undefined>): { decision: RuleDecision; rule: PermissionRule } | undefined {
    return this.first("Bash", (rule) => rule.specifier === undefined || bashSpecifierMatches(rule.specifier, words, rule.decision !== "allow"));
  }

  /** The Network rule (deny before allow) for one program of a command, given as words like `forCommandWords`. */
  forNetworkWords(words: Array<string | undefined>): { decision: RuleDecision; rule: PermissionRule } | undefined {
    // Domain rules (`Network(domain:…)`, network-domains.ts) name hosts, not commands: the proxy applies them.
    return this.first("Network", (rule) => rule.specifier === undefined || (!isDomainSpecifier(rule.specifier) && bashSpecifierMatches(rule.specifier, words, rule.decision !== "allow")));
  }

  /** The Unsandboxed rule (deny before allow) for one program of a command: whether it may run outside the sandbox without asking. */
  forUnsandboxedWords(words: Array<string | undefined>): { decision: RuleDecision; rule: PermissionRule } | undefined {
    return this.first("Unsandboxed", (rule) => rule.specifier === undefined || bashSpecifierMatches(rule.specifier, words, rule.decision !== "allow"));
  }

  /** Whether any Network rule is in force (otherwise a command's network is the sandbox's setting, without a parse). */
  get hasNetworkRules(): boolean {
    return this.list.some((rule) => rule.tool === "Network" && !isDomainSpecifier(rule.specifier));
  }

  /** A rule naming the exact command text (`Bash(<text>)`), which allows even what the parse does not understand. */
  exactCommandAllowed(text: string): PermissionRule | undefined {
    return this.rules.find((rule) => rule.tool === "Bash" && rule.decision === "allow" && rule.specifier === text.trim());
  }

  forPath(tool: "Read" | "Edit", absolutePath: string): { decision: RuleDecision; rule: PermissionRule } | undefined {
    return this.first(tool, (rule) => rule.specifier === undefined || pathSpecifierMatches(rule.specifier, absolutePath, this.workspace));
  }

  forWeb(url: string): { decision: RuleDecision; rule: PermissionRule } | undefined {
    const domain = domainOf(url);
    return this.first("WebFetch", (rule) => {
      if (rule.specifier === undefined) return true;
      const wanted = rule.specifier.startsWith("domain:") ? normalDomain(rule.specifier.slice(7)) : undefined;
      // The domain itself or a subdomain (whole labels: example.com never matches evilexample.com).
      return wanted !== undefined && wanted !== "" && domain !== undefined && (domain === wanted || domain.endsWith(`.${wanted}`));
    });
  }

  /** `mcp__server` covers every tool of the server; `mcp__server__tool` one tool. */
  forMcp(server: string, tool: string): { decision: RuleDecision; rule: PermissionRule } | undefined {
    return this.first("mcp", (rule) => {
      const text = rule.text.replace(/\(\*\)$/, "");
      return text === `mcp__${server}` || text === `mcp__${server}__*` || text === `mcp__${server}__${tool}`;
    });
  }

  /**
   * A tool ruled by its bare name (`lookup_ticket`, or `lookup_ticket(*)`): the custom tools
   * an embedding program defines (src/tools/custom-tool.ts).
   */
  forTool(name: string): { decision: RuleDecision; rule: PermissionRule } | undefined {
    return this.first("other", (rule) => rule.specifier === undefined && rule.text.replace(/\((\*)?\)$/, "") === name);
  }

  private first(tool: RuleTool, matches: (rule: PermissionRule) => boolean): { decision: RuleDecision; rule: PermissionRule } | undefined {
    for (const decision of ruleDecisions) {
      const rule = this.rules.find((candidate) => candidate.tool === tool && candidate.decision === decision && matches(candidate));
      if (rule !== undefined) return { decision, rule };
    }
    return undefined;
  }
}
