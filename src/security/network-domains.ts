/**
 * Network by domain (#30): which hosts a sandboxed command may reach through
 * cairn's network proxy (network-proxy.ts). Rules are `Network(...)` rules
 * whose specifier names a host rather than a command:
 * - `Network(domain:registry.npmjs.org)`: that host exactly;
 * - `Network(domain:*.example.com)`: every subdomain of example.com (whole
 *   labels; not example.com itself, not evilexample.com);
 * - `Network(preset:package-registries)`: a named list of hosts (presets below).
 * Deny wins over allow, whatever the order or the source.
 */
import type { PermissionRule } from "./permission-rules.js";

/** Named host lists, as Codex's permission profiles: one rule allows what a common job needs. */
export const networkPresets: Readonly<Record<string, readonly string[]>> = {
  "package-registries": [
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "pypi.org",
    "files.pythonhosted.org",
    "crates.io",
    "index.crates.io",
    "static.crates.io",
    "proxy.golang.org",
    "sum.golang.org",
    "rubygems.org",
    "index.rubygems.org",
    "repo.maven.apache.org",
    "repo1.maven.org",
    "plugins.gradle.org",
    "api.nuget.org",
    "deb.debian.org",
  ],
  github: ["github.com", "*.github.com", "*.githubusercontent.com", "codeload.github.com"],
};

export type DomainDecision = { allowed: true; rule: PermissionRule } | { allowed: false; rule?: PermissionRule; reason: string };

/** Whether a Network rule's specifier names hosts (`domain:`, `preset:`) rather than commands. */
export function isDomainSpecifier(specifier: string | undefined): boolean {
  return specifier !== undefined && /^(domain|preset):/.test(specifier);
}

/** A problem with a domain specifier, or undefined when it is well formed. */
export function domainSpecifierProblem(specifier: string): string | undefined {
  if (specifier.startsWith("preset:")) {
    const name = specifier.slice(7);
    return name in networkPresets ? undefined : `there is no network preset "${name}" (presets: ${Object.keys(networkPresets).join(", ")})`;
  }
  const pattern = normalHost(specifier.slice(7));
  if (pattern === "" || pattern === "*" || pattern === "*.") return "name a host, like domain:registry.npmjs.org or domain:*.example.com";
  if (pattern.slice(1).includes("*") || (pattern.startsWith("*") && !pattern.startsWith("*."))) return "a wildcard stands only as the first label, like domain:*.example.com";
  return undefined;
}

/** A host as rules compare it: lower case, without brackets (IPv6) or a trailing dot. */
export function normalHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "");
}

function patternsOf(specifier: string): string[] {
  if (specifier.startsWith("preset:")) return [...(networkPresets[specifier.slice(7)] ?? [])];
  return [normalHost(specifier.slice(7))];
}

export function hostMatches(pattern: string, host: string): boolean {
  if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** The Network domain rules in force (allow and deny). */
export function domainRules(rules: readonly PermissionRule[]): PermissionRule[] {
  return rules.filter((rule) => rule.tool === "Network" && isDomainSpecifier(rule.specifier));
}

/** Whether any rule allows some domain: then commands without the full network go through the proxy. */
export function allowsSomeDomain(rules: readonly PermissionRule[]): boolean {
  return domainRules(rules).some((rule) => rule.decision === "allow");
}

/** The decision for one host: a deny rule naming it, else an allow rule naming it, else refused. */
export function decideDomain(rules: readonly PermissionRule[], rawHost: string): DomainDecision {
  const host = normalHost(rawHost);
  const found = domainRules(rules);
  const matching = (decision: "allow" | "deny") => found.find((rule) => rule.decision === decision && patternsOf(rule.specifier ?? "").some((pattern) => hostMatches(pattern, host)));
  const deny = matching("deny");
  if (deny !== undefined) return { allowed: false, rule: deny, reason: `the rule ${deny.text} (${deny.source}) denies ${host}` };
  const allow = matching("allow");
  if (allow !== undefined) return { allowed: true, rule: allow };
  return { allowed: false, reason: `no Network(domain:…) rule allows ${host}` };
}
