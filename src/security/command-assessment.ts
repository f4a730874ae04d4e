/**
 * What the rules and the workspace say about one command line, on its real
 * parse: which rule denies, asks or allows each program it runs, what it
 * writes outside the workspace or into protected paths, which ignored files it
 * names, what it reads broadly, whether it may run a denied program by another
 * name, and what could not be understood.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { globSync as GlobSync } from "tinyglobby";
import { loadShellParser } from "./shell-parser.js";
import { analyzeShell } from "./shell-analysis.js";
import { programName, readEffects, type Invocation, type PathUse } from "./command-effects.js";
import { commandsInText } from "./program-effects.js";
import { wholeProgramOf } from "./denied-program-stubs.js";
import { expandBraces } from "./brace-expansion.js";
import { isReadOnlyInvocation } from "./read-only-programs.js";
import type { PermissionRule, PermissionRules } from "./permission-rules.js";
import type { ShellWord } from "./shell-words.js";

/** What cairn knows about a path a command names. */
export interface PathFacts {
  inside: boolean;
  ignored: boolean;
  /** Why the path is protected (cairn's config, hooks, git hooks …), if it is. */
  protectedReason: string | undefined;
  /** A credentials folder or file (`~/.ssh`, `.env`, …). */
  credential: boolean;
  display: string;
}

export interface PathOracle {
  /** The folder commands run in. */
  cwd: string;
  facts(path: string): PathFacts;
  /** An oracle for one decision (state such as the ignore file read once). */
  snapshot?(): PathOracle;
  /** Whether the workspace has files the ignore file hides (broad readers would see them without the sandbox). */
  hasIgnoredFiles?(): boolean;
}

export interface CommandAssessment {
  command: string;
  /** Each program that will run, as text (`…` marks a word known only when it runs). */
  invocations: string[];
  denied: { invocation: string; rule: PermissionRule } | undefined;
  asked: { invocation: string; rule: PermissionRule } | undefined;
  /** Every program is allowed by a rule (or the exact text is). */
  allowedByRules: boolean;
  exactRule: PermissionRule | undefined;
  /** What no rule vouches for (hard limits of a static reading, and opaque programs no rule names). */
  unsure: string[];
  /** Opaque programs a rule the user wrote vouches for (`python3 -c` under `Bash(python3:*)`). */
  vouched: string[];
  outsideWrites: string[];
  /** Every path written that could be resolved, absolute (for Edit rules). */
  writtenPaths: string[];
  protectedWrites: string[];
  ignoredFiles: string[];
  /** Programs that read whole folders or git's history. */
  broadReads: string[];
  /** A deny rule's program that this command may run by another name or through a program cairn does not know. */
  mayRunDenied: string | undefined;
  /** Only reads: every program and every option is on the known-safe list, and nothing is written. */
  readOnly: boolean;
  /** A rule that would allow commands like this one, generalised the safe way (from its first program). */
  suggestion: string | undefined;
  /** The same rule for each program of the line, once each (`npm test && npm run lint`: two rules). */
  partRules: string[];
}

const harmlessTargets = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

export function wordsForRules(invocation: Invocation): Array<string | undefined> {
  return invocation.words.map((word, index) => (word.dynamic ? undefined : index === 0 ? programName(word) : word.text));
}

export function invocationText(invocation: Invocation): string {
  return invocation.words.map((word, index) => (word.dynamic ? "…" : index === 0 ? programName(word) : word.text)).join(" ");
}

/** `Bash(<program> <subcommand>:*)` for the first program of a line that is not transparent. */
export function suggestRule(invocations: Invocation[]): string | undefined {
  const invocation = invocations.find((candidate) => candidate.transparent !== true);
  return invocation === undefined ? undefined : ruleFor(invocation);
}

/** One rule per program of the line (transparent ones aside), once each; empty when any program is computed. */
export function partRules(invocations: Invocation[]): string[] {
  const rules = invocations.filter((invocation) => invocation.transparent !== true).map(ruleFor);
  return rules.some((rule) => rule === undefined) ? [] : [...new Set(rules as string[])];
}

/** `Bash(<program> <subcommand>:*)`: the first words, never an argument after something computed. */
function ruleFor(invocation: Invocation): string | undefined {
  const first = invocation.words[0];
  if (first === undefined || first.dynamic) return undefined;
  const words = [programName(first)];
  const second = invocation.words[1];
  if (second !== undefined && !second.dynamic && /^[a-z][a-z0-9-]*$/.test(second.text)) words.push(second.text);
  return `Bash(${words.join(" ")}:*)`;
}

/** Loaded with the shell grammar on the first assessment: neither is needed to start (issue 18). */
let globSync: typeof GlobSync | undefined;

/** The absolute paths a word names (braces and globs expanded as bash would, or wider), or undefined when only known at run time. */
function pathsOf(use: PathUse, cwd: string): string[] | undefined {
  const { word, base } = use;
  if (word.dynamic && word.path === undefined) return undefined;
  const text = word.path ?? word.text;
  if (!isAbsolute(text) && base === null) return undefined;
  const folder = base === undefined || base === null ? cwd : resolve(cwd, base);
  const names = word.brace && !word.dynamic ? expandBraces(text) : [text];
  const result: string[] = [];
  for (const name of names) {
    const absolute = isAbsolute(name) ? resolve(name) : resolve(folder, name);
    result.push(absolute);
    if ((word.glob || /[*?[]/.test(name)) && !word.dynamic && globSync !== undefined) {
      try {
        result.push(...globSync(name, { cwd: folder, absolute: true, dot: true, onlyFiles: false, expandDirectories: false }).slice(0, 1000));
      } catch {
        continue;
      }
    }
  }
  return result;
}

/** Facts asked once per assessment: a long chain names the same paths again and again. */
function memoized(live: PathOracle): PathOracle {
  const oracle = live.snapshot?.() ?? live;
  const facts = new Map<string, PathFacts>();
  return {
    cwd: oracle.cwd,
    facts(path) {
      let found = facts.get(path);
      if (found === undefined) {
        found = oracle.facts(path);
        facts.set(path, found);
      }
      return found;
    },
    ...(oracle.hasIgnoredFiles === undefined ? {} : { hasIgnoredFiles: oracle.hasIgnoredFiles.bind(oracle) }),
  };
}

const fileDigests = new Map<string, string>();

function digest(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > 64 * 1024 * 1024) return undefined;
    const key = `${path}:${stats.size}:${stats.mtimeMs}`;
    let found = fileDigests.get(key);
    if (found === undefined) {
      found = createHash("sha256").update(readFileSync(path)).digest("hex");
      fileDigests.set(key, found);
    }
    return found;
  } catch {
    return undefined;
  }
}

/** The files a denied program name runs from (for a copy under another name). */
function deniedBinaries(names: ReadonlySet<string>): Map<string, string> {
  const result = new Map<string, string>();
  for (const name of names) {
    for (const folder of ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin"]) {
      const found = digest(`${folder}/${name}`);
      if (found !== undefined) result.set(found, name);
    }
  }
  return result;
}

/** Whether this command may run a program a whole-program deny rule names, in a way the rules cannot see. */
function mayRunDenied(options: { invocations: Invocation[]; names: ReadonlySet<string>; writes: boolean; cwd: string }): string | undefined {
  if (options.names.size === 0) return undefined;
  let binaries: Map<string, string> | undefined;
  for (const invocation of options.invocations) {
    const first = invocation.words[0];
    if (first === undefined || first.dynamic) continue;
    // A program run by path: a copy of a denied program under another name.
    if (first.text.includes("/") && !options.names.has(programName(first))) {
      binaries ??= deniedBinaries(options.names);
      const copied = binaries.get(digest(resolve(options.cwd, first.path ?? first.text)) ?? "");
      if (copied !== undefined) return `${first.text} is a copy of ${copied}`;
    }
    if (invocation.transparent === true || (!options.writes && isReadOnlyInvocation(invocation.words))) continue;
    for (const word of invocation.words.slice(1)) {
      if (word.dynamic) continue;
      if (options.names.has(basename(word.text))) return `${programName(first)} is given ${word.text} as an argument`;
      for (const words of commandsInText(word.text)) {
        const name = words[0];
        if (name !== undefined && !name.dynamic && options.names.has(programName(name))) return `${programName(first)} is given a command line that runs ${programName(name)}`;
      }
    }
  }
  return undefined;
}

export function assessCommandSync(options: { command: string; rules: PermissionRules; paths: PathOracle }): CommandAssessment {
  const { command, rules } = options;
  const paths = memoized(options.paths);
  const effects = readEffects(analyzeShell(command));
  const exactRule = rules.exactCommandAllowed(command);
  const allowed = (invocation: Invocation): boolean => rules.forCommandWords(wordsForRules(invocation))?.decision === "allow";
  const unsure = [...effects.unsure];
  const vouched: string[] = [];
  for (const { invocation, reason } of effects.opaque) (allowed(invocation) ? vouched : unsure).push(reason);
  const assessment: CommandAssessment = {
    command,
    invocations: effects.invocations.map(invocationText),
    denied: undefined,
    asked: undefined,
    allowedByRules: effects.invocations.length > 0,
    exactRule,
    unsure: [...new Set(unsure)],
    vouched: [...new Set(vouched)],
    outsideWrites: [],
    writtenPaths: [],
    protectedWrites: [],
    ignoredFiles: [],
    broadReads: [...new Set(effects.broadReads)],
    mayRunDenied: undefined,
    readOnly: effects.unsure.length === 0 && effects.opaque.length === 0 && effects.invocations.length > 0,
    suggestion: suggestRule(effects.invocations),
    partRules: partRules(effects.invocations),
  };
  for (const invocation of effects.invocations) {
    const text = invocationText(invocation);
    const found = rules.forCommandWords(wordsForRules(invocation));
    if (found?.decision === "deny") assessment.denied ??= { invocation: text, rule: found.rule };
    if (found?.decision === "ask") assessment.asked ??= { invocation: text, rule: found.rule };
    if (found?.decision !== "allow" && invocation.transparent !== true) assessment.allowedByRules = false;
    if (invocation.transparent !== true && !isReadOnlyInvocation(invocation.words)) assessment.readOnly = false;
  }
  if (exactRule !== undefined) assessment.allowedByRules = true;

  const writes = effects.writes.filter((use) => !harmlessTargets.test(use.word.text));
  // A link the line made: writing through it writes its target.
  const linked = new Map<string, string[]>();
  for (const { link, target, symbolic } of effects.links) {
    const at = pathsOf(link, paths.cwd)?.[0];
    const base = symbolic && at !== undefined ? { ...target, base: dirname(at) } : target;
    const to = pathsOf(base, paths.cwd);
    if (at !== undefined && to !== undefined) linked.set(at, to);
  }
  for (const use of writes) {
    const found = pathsOf(use, paths.cwd);
    const targets = found === undefined ? undefined : [...found, ...found.flatMap((path) => linked.get(path) ?? [])];
    if (targets === undefined) {
      assessment.outsideWrites.push(`${use.word.text} (only known when it runs)`);
      continue;
    }
    for (const path of targets) {
      assessment.writtenPaths.push(path);
      const facts = paths.facts(path);
      if (!facts.inside) assessment.outsideWrites.push(facts.display);
      if (facts.protectedReason !== undefined) assessment.protectedWrites.push(`${facts.display} (${facts.protectedReason})`);
    }
  }
  if (writes.length > 0) assessment.readOnly = false;
  for (const use of effects.mentioned) {
    const { word } = use;
    if (!word.dynamic && (word.text.startsWith("-") || /^[a-z][a-z0-9+.-]*:\/\//i.test(word.text)) && !word.text.includes("=")) continue;
    const candidates = pathsOf(use, paths.cwd) ?? [];
    const equals = word.dynamic ? -1 : word.text.indexOf("=");
    if (equals > 0 && equals < word.text.length - 1) candidates.push(...(pathsOf({ word: { ...word, text: word.text.slice(equals + 1), path: word.text.slice(equals + 1) }, base: use.base }, paths.cwd) ?? []));
    for (const path of candidates) {
      const facts = paths.facts(path);
      if (facts.ignored || facts.credential) assessment.ignoredFiles.push(facts.display);
    }
  }
  const deniedNames = new Set(rules.rules.filter((rule) => rule.tool === "Bash" && rule.decision === "deny").flatMap((rule) => wholeProgramOf(rule.specifier) ?? []));
  assessment.mayRunDenied = mayRunDenied({ invocations: effects.invocations, names: deniedNames, writes: writes.length > 0, cwd: paths.cwd });
  assessment.outsideWrites = [...new Set(assessment.outsideWrites)];
  assessment.protectedWrites = [...new Set(assessment.protectedWrites)];
  assessment.ignoredFiles = [...new Set(assessment.ignoredFiles)];
  return assessment;
}

export async function assessCommand(options: { command: string; rules: PermissionRules; paths: PathOracle }): Promise<CommandAssessment> {
  await loadShellParser();
  globSync ??= (await import("tinyglobby")).globSync;
  return assessCommandSync(options);
}

export type { ShellWord };
