/**
 * What the rules and the workspace say about one command line, on its real
 * parse: which rule denies, asks or allows each program it runs, what it
 * writes outside the workspace or into protected paths, which ignored files it
 * names, and what could not be understood.
 */
import type { globSync as GlobSync } from "tinyglobby";
import { loadShellParser } from "./shell-parser.js";
import { analyzeShell } from "./shell-analysis.js";
import { programName, readEffects, type Invocation } from "./command-effects.js";
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
  unsure: string[];
  outsideWrites: string[];
  /** Every path written that could be resolved, absolute (for Edit rules). */
  writtenPaths: string[];
  protectedWrites: string[];
  ignoredFiles: string[];
  /** Only reads: every program is a known read-only one, nothing is written. */
  readOnly: boolean;
  /** A rule that would allow commands like this one, generalised the safe way. */
  suggestion: string | undefined;
}

const readOnlyPrograms = new Set([
  "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "pwd", "echo", "printf", "which", "whereis", "type",
  "stat", "file", "du", "df", "date", "whoami", "id", "uname", "hostname", "sort", "uniq", "cut", "tr", "diff", "cmp", "tree",
  "basename", "dirname", "realpath", "readlink", "true", "false", "test", "[", "seq", "jq", "column", "nl", "od", "xxd",
  "hexdump", "md5sum", "sha1sum", "sha256sum", "tac", "rev", "fold", "fmt", "comm", "join", "paste", "expand", "find", "sed", "awk",
]);
const readOnlyGit = new Set(["status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "grep", "describe", "shortlog", "ls-tree", "cat-file"]);
const harmlessTargets = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

export function wordsForRules(invocation: Invocation): Array<string | undefined> {
  return invocation.words.map((word, index) => (word.dynamic ? undefined : index === 0 ? programName(word) : word.text));
}

export function invocationText(invocation: Invocation): string {
  return invocation.words.map((word, index) => (word.dynamic ? "…" : index === 0 ? programName(word) : word.text)).join(" ");
}

function isReadOnly(invocation: Invocation): boolean {
  const first = invocation.words[0];
  if (first === undefined || first.dynamic) return false;
  const name = programName(first);
  if (name === "git") {
    const sub = invocation.words.slice(1).find((word) => !word.text.startsWith("-"));
    return sub !== undefined && !sub.dynamic && readOnlyGit.has(sub.text);
  }
  if (name === "find") return !invocation.words.some((word) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(word.text));
  return readOnlyPrograms.has(name);
}

/** `Bash(<program> <subcommand>:*)`: the first words, never an argument after something computed. */
export function suggestRule(invocations: Invocation[]): string | undefined {
  const invocation = invocations.find((candidate) => candidate.transparent !== true);
  const first = invocation?.words[0];
  if (invocation === undefined || first === undefined || first.dynamic) return undefined;
  const words = [programName(first)];
  const second = invocation.words[1];
  if (second !== undefined && !second.dynamic && /^[a-z][a-z0-9-]*$/.test(second.text)) words.push(second.text);
  return `Bash(${words.join(" ")}:*)`;
}

/** Loaded with the shell grammar on the first assessment: neither is needed to start (issue 18). */
let globSync: typeof GlobSync | undefined;

function expandGlob(word: ShellWord, cwd: string): string[] {
  if (globSync === undefined) throw new Error("the glob matcher is not loaded yet (await assessCommand() first)");
  try {
    return globSync(word.text, { cwd, absolute: true, dot: true, onlyFiles: false, expandDirectories: false }).slice(0, 1000);
  } catch {
    return [];
  }
}


/** Facts and glob expansions asked once per assessment: a long chain names the same paths again and again. */
function memoized(live: PathOracle): PathOracle & { expand(word: ShellWord): string[] } {
  const oracle = live.snapshot?.() ?? live;
  const facts = new Map<string, PathFacts>();
  const globs = new Map<string, string[]>();
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
    expand(word) {
      if (!word.glob || word.dynamic) return word.path === undefined ? [] : [word.path];
      let found = globs.get(word.text);
      if (found === undefined) {
        found = [word.text, ...expandGlob(word, oracle.cwd)];
        globs.set(word.text, found);
      }
      return [...found];
    },
  };
}

export function assessCommandSync(options: { command: string; rules: PermissionRules; paths: PathOracle }): CommandAssessment {
  const { command, rules } = options;
  const paths = memoized(options.paths);
  const analysis = analyzeShell(command);
  const effects = readEffects(analysis);
  const exactRule = rules.exactCommandAllowed(command);
  const assessment: CommandAssessment = {
    command,
    invocations: effects.invocations.map(invocationText),
    denied: undefined,
    asked: undefined,
    allowedByRules: effects.invocations.length > 0,
    exactRule,
    unsure: [...new Set(effects.unsure)],
    outsideWrites: [],
    writtenPaths: [],
    protectedWrites: [],
    ignoredFiles: [],
    readOnly: effects.unsure.length === 0 && effects.invocations.length > 0,
    suggestion: suggestRule(effects.invocations),
  };
  for (const invocation of effects.invocations) {
    const text = invocationText(invocation);
    const found = rules.forCommandWords(wordsForRules(invocation));
    if (found?.decision === "deny") assessment.denied ??= { invocation: text, rule: found.rule };
    if (found?.decision === "ask") assessment.asked ??= { invocation: text, rule: found.rule };
    if (found?.decision !== "allow" && invocation.transparent !== true) assessment.allowedByRules = false;
    if (invocation.transparent !== true && !isReadOnly(invocation)) assessment.readOnly = false;
  }
  if (exactRule !== undefined) assessment.allowedByRules = true;

  for (const target of effects.writes) {
    if (harmlessTargets.test(target.text)) continue;
    const targets = paths.expand(target);
    if (targets.length === 0) {
      assessment.outsideWrites.push(`${target.text} (only known when it runs)`);
      continue;
    }
    for (const path of targets) {
      assessment.writtenPaths.push(path);
      const facts = paths.facts(path);
      if (!facts.inside) assessment.outsideWrites.push(facts.display);
      if (facts.protectedReason !== undefined) assessment.protectedWrites.push(`${facts.display} (${facts.protectedReason})`);
    }
  }
  if (effects.writes.some((target) => !harmlessTargets.test(target.text))) assessment.readOnly = false;
  for (const word of effects.mentioned) {
    if (!word.dynamic && (word.text.startsWith("-") || /^[a-z][a-z0-9+.-]*:\/\//i.test(word.text)) && !word.text.includes("=")) continue;
    const candidates = paths.expand(word);
    const equals = word.dynamic ? -1 : word.text.indexOf("=");
    if (equals > 0 && equals < word.text.length - 1) candidates.push(word.text.slice(equals + 1));
    for (const path of candidates) {
      const facts = paths.facts(path);
      if (facts.ignored || facts.credential) assessment.ignoredFiles.push(facts.display);
    }
  }
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
