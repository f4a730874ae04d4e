/**
 * What a command line really runs, writes and reads, on its real parse:
 * wrappers (`env`, `sudo`, `xargs`, `timeout`, `taskset`, `sh -c` …) run their
 * argument as the command; programs with a language of their own (`python -c`,
 * `sed` with `e`/`w`, `awk` with pipes, `env -S`, `git -c`) are "opaque": only a
 * rule naming the program vouches for them; what cannot be read statically at
 * all (`eval`, aliases and functions defined in the line, hijacking variables,
 * `~user`, a computed folder change) is "unsure"; paths are resolved against
 * the folder an earlier `cd` or `env -C` moved to.
 */
import { basename, isAbsolute, join, resolve } from "node:path";
import { homedir } from "node:os";
import { analyzeShell, hijackingVariables, type ShellAnalysis } from "./shell-analysis.js";
import type { ShellWord } from "./shell-words.js";
import { interpreters, packageRunners, selfContainedOptions, shells, simpleWrappers, transparentWrappers } from "./program-tables.js";
import { readProgramEffects } from "./program-effects.js";

/** The folder a word is relative to: undefined for the command's own folder, a path (absolute, or relative to that folder), or null when only known at run time. */
export type Base = string | null | undefined;

/** One program that will run, with its words (the first is the program). */
export interface Invocation {
  words: ShellWord[];
  /** The wrappers it runs under (`sudo`, `xargs`, `sh -c`). */
  via: string[];
  /** A wrapper that only runs its argument (`timeout 60 npm test`): the rules judge what it runs. */
  transparent?: boolean;
  base: Base;
}

export interface PathUse {
  word: ShellWord;
  base: Base;
}

export interface Opaque {
  invocation: Invocation;
  reason: string;
}

export interface CommandEffects {
  invocations: Invocation[];
  /** Paths written (redirections and write-to-path arguments). */
  writes: PathUse[];
  /** Every word that could name a file (for the ignore file). */
  mentioned: PathUse[];
  /** What no rule can vouch for: the command is asked unless its exact text is allowed. */
  unsure: string[];
  /** Programs whose own language decides what they do: a rule allowing the program vouches for it. */
  opaque: Opaque[];
  /** Programs that read whole folders or git's history (ignored files can leak through them). */
  broadReads: string[];
  /** Links made by the line (`ln -s ~/.bashrc rc`): a later write through `rc` writes the target. */
  links: Array<{ link: PathUse; target: PathUse; symbolic: boolean }>;
}

const maximumDepth = 8;

/** The name a command is known by: `/usr/bin/rm` and `rm` are the same program. */
export function programName(word: ShellWord): string {
  return word.dynamic ? word.text : basename(word.text);
}

export function isOption(word: ShellWord): boolean {
  return !word.dynamic && word.text.startsWith("-") && word.text !== "-";
}

export function literal(text: string): ShellWord {
  return { text, dynamic: false, glob: false, brace: false, path: text };
}

export function plainArguments(words: ShellWord[], valued: string[] = []): ShellWord[] {
  const result: ShellWord[] = [];
  let afterDoubleDash = false;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined) continue;
    if (!afterDoubleDash && word.text === "--" && !word.dynamic) {
      afterDoubleDash = true;
      continue;
    }
    if (!afterDoubleDash && isOption(word)) {
      if (valued.includes(word.text)) index += 1;
      continue;
    }
    result.push(word);
  }
  return result;
}

/** Skips a wrapper's options (and `leading` fixed arguments); returns the index of the wrapped command. */
export function wrappedStart(words: ShellWord[], valued: string[], leading = 0): number {
  let index = 1;
  while (index < words.length) {
    const word = words[index];
    if (word === undefined || word.dynamic) break;
    if (word.text === "--") {
      index += 1;
      break;
    }
    if (!word.text.startsWith("-") || word.text === "-") break;
    index += valued.includes(word.text) ? 2 : 1;
  }
  return index + leading;
}

/** A folder a `cd` names, from the current one. */
function moved(base: Base, target: ShellWord | undefined): Base {
  if (target === undefined) return homedir();
  if (target.dynamic || target.text === "-" || target.glob || target.brace || /^~[^/]/.test(target.text)) return null;
  const path = target.path ?? target.text;
  if (isAbsolute(path)) return resolve(path);
  if (base === null) return null;
  return base === undefined ? path : join(base, path);
}

export class EffectsReader {
  readonly effects: CommandEffects = { invocations: [], writes: [], mentioned: [], unsure: [], opaque: [], broadReads: [], links: [] };
  /** The folder later commands run in, when a `cd` moved it. */
  base: Base = undefined;

  readAnalysis(analysis: ShellAnalysis, via: string[], depth: number): void {
    this.effects.unsure.push(...analysis.unsure);
    // In the order of the text, so a redirection is resolved in the folder an earlier `cd` moved to.
    const steps = [...analysis.commands.map((command) => ({ start: command.start, command })), ...analysis.redirections.map((redirection) => ({ start: redirection.start, redirection }))].sort(
      (left, right) => left.start - right.start,
    );
    for (const step of steps) {
      if ("command" in step) {
        this.readWords(step.command.words, via, depth);
        continue;
      }
      const use = { word: step.redirection.target, base: this.base };
      this.effects.mentioned.push(use);
      if (step.redirection.writes) this.effects.writes.push(use);
    }
  }

  write(word: ShellWord, base: Base = this.base): void {
    this.effects.writes.push({ word, base });
  }

  opaque(invocation: Invocation, reason: string): void {
    this.effects.opaque.push({ invocation, reason });
  }

  nested(script: ShellWord, via: string[], depth: number, what: string, invocation: Invocation): void {
    if (script.dynamic) {
      this.opaque(invocation, `${what} runs text that is only known when it runs`);
      return;
    }
    if (depth >= maximumDepth) {
      this.effects.unsure.push(`${what} nests too deeply to check`);
      return;
    }
    this.readAnalysis(analyzeShell(script.text), via, depth + 1);
  }

  readWords(words: ShellWord[], via: string[], depth: number): void {
    const first = words[0];
    if (first === undefined) return;
    for (const word of words.slice(1)) {
      this.effects.mentioned.push({ word, base: this.base });
      if (!word.dynamic && /^~[^/]/.test(word.text)) this.effects.unsure.push(`${word.text} is a user's home folder that bash resolves`);
    }
    const invocation: Invocation = { words, via, base: this.base };
    this.effects.invocations.push(invocation);
    if (first.dynamic) return;
    const name = programName(first);
    const rest = (start: number, wrapper: string): void => {
      const inner = words.slice(start);
      if (inner.length === 0) return;
      if (transparentWrappers.has(name)) invocation.transparent = true;
      this.readWords(inner, [...via, wrapper], depth);
    };

    const wrapper = simpleWrappers[name];
    if (wrapper !== undefined) {
      if (name === "command" && words.some((word) => word.text === "-v" || word.text === "-V")) return;
      if (name === "time") readTimeOutput(words, this);
      if (name === "exec" && words.some((word) => /^-[a-z]*c/.test(word.text))) this.effects.unsure.push("exec -c clears CAIRN_COMMAND_TOKEN, which cairn uses to end what the command leaves running");
      rest(wrappedStart(words, wrapper.valued, wrapper.leading ?? 0), name);
      return;
    }
    switch (name) {
      case "cd":
      case "pushd":
        this.base = moved(this.base, plainArguments(words)[0]);
        return;
      case "popd":
        this.base = null;
        return;
      case "alias":
      case "unalias":
      case "shopt":
      case "enable":
      case "hash":
        this.effects.unsure.push(`${name} changes what later names run`);
        return;
      case "eval":
        this.effects.unsure.push("eval runs text as a command");
        return;
      case "at":
      case "batch":
      case "systemd-run":
      case "launchctl":
        this.effects.unsure.push(`${name} runs a command outside the task, where cairn cannot stop it`);
        return;
      case "crontab":
        if (!(words.length === 2 && words[1]?.text === "-l")) this.effects.unsure.push("crontab schedules commands that run outside the task");
        return;
      case "env":
        this.readEnv(words, via, depth, invocation);
        return;
      case "xargs": {
        const start = wrappedStart(words, ["-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"]);
        if (start >= words.length) this.effects.invocations.push({ words: [literal("echo")], via: [...via, "xargs"], base: this.base });
        else rest(start, "xargs");
        return;
      }
      case "watch": {
        const start = wrappedStart(words, ["-n", "-d", "--interval", "--differences"]);
        const script = words.slice(start);
        if (script.length === 0) return;
        const joined = script.every((word) => !word.dynamic) ? literal(script.map((word) => word.text).join(" ")) : { ...literal(""), dynamic: true };
        invocation.transparent = !joined.dynamic;
        this.nested(joined, [...via, "watch"], depth, "watch", invocation);
        return;
      }
      case "trap": {
        // `trap "" TERM` ignores a signal; `trap 'cmd' EXIT` runs cmd later: judged like any command.
        const action = plainArguments(words)[0];
        if (action !== undefined && action.text !== "" && action.text !== "-") this.nested(action, [...via, "trap"], depth, "trap", invocation);
        return;
      }
      case "npm":
      case "pnpm":
      case "yarn": {
        const sub = words[1]?.text;
        if (sub === "exec" || sub === "x" || sub === "dlx") rest(wrappedStart(words.slice(1), ["-p", "--package", "-c", "--call"]) + 1, `${name} ${sub}`);
        if (words.some((word) => word.text === "-c" || word.text === "--call")) this.opaque(invocation, `${name} ${sub ?? ""} --call runs a shell string`);
        return;
      }
      default:
        break;
    }
    if (packageRunners[name] !== undefined) {
      if (words.some((word) => word.text === "-c" || word.text === "--call")) this.opaque(invocation, `${name} -c runs a shell string`);
      rest(wrappedStart(words, [...(packageRunners[name] ?? []), "-c", "--call"]), name);
      return;
    }
    if (shells.has(name)) {
      this.readShell(words, name, via, depth, invocation);
      return;
    }
    const inlineFlags = interpreters[name] ?? (/^python3?\.\d+$/.test(name) ? ["-c"] : undefined);
    if (inlineFlags !== undefined) {
      const inline = words.find((word) => inlineFlags.includes(word.text) || inlineFlags.some((flag) => flag.startsWith("--") && word.text.startsWith(`${flag}=`)));
      const plain = plainArguments(words);
      // `node --test`, `python3 --version`: options that do their own thing instead of reading a program.
      const ownWork = words.some((word) => selfContainedOptions.has(word.text));
      if (inline !== undefined) this.opaque(invocation, `${name} ${inline.text} runs inline code`);
      else if ((plain.length === 0 && !ownWork) || plain[0]?.text === "-") this.opaque(invocation, `${name} reads a program from its input`);
      return;
    }
    readProgramEffects({ name, words, invocation, reader: this, via, depth });
  }

  private readEnv(words: ShellWord[], via: string[], depth: number, invocation: Invocation): void {
    let index = 1;
    let base = this.base;
    while (index < words.length) {
      const word = words[index];
      if (word === undefined) break;
      if (word.text === "-S" || word.text.startsWith("--split-string") || /^-[a-zA-Z]*S/.test(word.text)) {
        this.opaque(invocation, "env -S splits a string into a command");
        return;
      }
      if (word.text === "-C" || word.text === "--chdir") {
        base = moved(base, words[index + 1]);
        index += 2;
      } else if (word.text.startsWith("--chdir=")) {
        base = moved(base, literal(word.text.slice("--chdir=".length)));
        index += 1;
      } else if (word.text === "-u" || word.text === "--unset" || word.text.startsWith("--unset=")) {
        // Dropping cairn's own marker lets a process escape the end of the command (it is how cairn finds what a command left running).
        const unset = word.text.startsWith("--unset=") ? word.text.slice("--unset=".length) : (words[index + 1]?.text ?? "");
        if (unset.startsWith("CAIRN_")) this.effects.unsure.push(`it removes ${unset}, which cairn uses to end what the command leaves running`);
        index += word.text.startsWith("--unset=") ? 1 : 2;
      } else if (word.text === "-i" || word.text === "--ignore-environment" || word.text === "-") {
        this.effects.unsure.push("env -i clears CAIRN_COMMAND_TOKEN, which cairn uses to end what the command leaves running");
        index += 1;
      } else if (isOption(word)) index += 1;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text) || (word.dynamic && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text))) {
        const variable = word.text.slice(0, word.text.indexOf("="));
        if (hijackingVariables.test(variable)) this.effects.unsure.push(`the assignment ${variable}=… changes what the command runs`);
        index += 1;
      } else break;
    }
    const inner = words.slice(index);
    if (inner.length === 0) return;
    invocation.transparent = true;
    const saved = this.base;
    this.base = base;
    this.readWords(inner, [...via, "env"], depth);
    this.base = saved;
  }

  private readShell(words: ShellWord[], name: string, via: string[], depth: number, invocation: Invocation): void {
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index];
      if (word === undefined) break;
      if (word.dynamic) {
        this.opaque(invocation, `${name} is given a computed argument`);
        return;
      }
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.text) && name !== "busybox") {
        const script = words[index + 1];
        if (script === undefined) this.effects.unsure.push(`${name} -c without a command`);
        else {
          if (!script.dynamic) invocation.transparent = true;
          this.nested(script, [...via, `${name} -c`], depth, `${name} -c`, invocation);
        }
        return;
      }
      if (word.text === "-s" || word.text === "-") {
        this.opaque(invocation, `${name} reads commands from its input`);
        return;
      }
      if (word.text.startsWith("-") || word.text.startsWith("+")) continue;
      // A script file: the invocation itself is what the rules judge.
      return;
    }
    this.opaque(invocation, `${name} reads commands from its input`);
  }
}

function readTimeOutput(words: ShellWord[], reader: EffectsReader): void {
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined || !word.text.startsWith("-")) break;
    if ((word.text === "-o" || word.text === "--output") && words[index + 1] !== undefined) reader.write(words[index + 1] as ShellWord);
    if (word.text.startsWith("--output=")) reader.write(literal(word.text.slice("--output=".length)));
  }
}

export function readEffects(analysis: ShellAnalysis): CommandEffects {
  const reader = new EffectsReader();
  reader.readAnalysis(analysis, [], 0);
  return reader.effects;
}
