/**
 * What a simple command really runs and writes: wrappers (`env`, `sudo`,
 * `xargs`, `timeout`, `sh -c` …) run their argument as the command, known
 * escapes are treated as what they run (`find -exec`, `git -c`, `sed e`,
 * `awk system()`, `python -c` …), and commands known to write to a path
 * argument report that path.
 */
import { basename } from "node:path";
import { analyzeShell, type ShellAnalysis, type SimpleCommand } from "./shell-analysis.js";
import type { ShellWord } from "./shell-words.js";
import { firstArgumentNotPath, interpreters, packageRunners, pathWriters, selfContainedOptions, shells, simpleWrappers, transparentWrappers } from "./program-tables.js";

/** One program that will run, with its words (the first is the program). */
export interface Invocation {
  words: ShellWord[];
  /** The wrappers it runs under (`sudo`, `xargs`, `sh -c`). */
  via: string[];
  /**
   * A wrapper that only runs its argument (`timeout 60 npm test`, `sh -c '…'`):
   * the rules judge what it runs; an allow rule for the wrapper is not needed.
   */
  transparent?: boolean;
}

export interface CommandEffects {
  invocations: Invocation[];
  /** Paths written (redirections and write-to-path arguments). */
  writes: ShellWord[];
  /** Every word that could name a file (for the ignore file). */
  mentioned: ShellWord[];
  unsure: string[];
}

const maximumDepth = 8;

/** The name a command is known by: `/usr/bin/rm` and `rm` are the same program. */
export function programName(word: ShellWord): string {
  return word.dynamic ? word.text : basename(word.text);
}

function isOption(word: ShellWord): boolean {
  return !word.dynamic && word.text.startsWith("-") && word.text !== "-";
}

function plainArguments(words: ShellWord[], valued: string[] = []): ShellWord[] {
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
function wrappedStart(words: ShellWord[], valued: string[], leading = 0): number {
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

function literal(text: string): ShellWord {
  return { text, dynamic: false, glob: false, brace: false, path: text };
}

class EffectsReader {
  readonly effects: CommandEffects = { invocations: [], writes: [], mentioned: [], unsure: [] };

  readAnalysis(analysis: ShellAnalysis, via: string[], depth: number): void {
    this.effects.unsure.push(...analysis.unsure);
    for (const redirection of analysis.redirections) {
      this.effects.mentioned.push(redirection.target);
      if (redirection.writes) this.effects.writes.push(redirection.target);
    }
    for (const command of analysis.commands) this.readCommand(command, via, depth);
  }

  readCommand(command: SimpleCommand, via: string[], depth: number): void {
    this.readWords(command.words, via, depth);
  }

  private nested(script: ShellWord, via: string[], depth: number, what: string): void {
    if (script.dynamic) {
      this.effects.unsure.push(`${what} runs text that is only known when it runs`);
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
    for (const word of words.slice(1)) this.effects.mentioned.push(word);
    const invocation: Invocation = { words, via };
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
      rest(wrappedStart(words, wrapper.valued, wrapper.leading ?? 0), name);
      return;
    }
    switch (name) {
      case "env": {
        let index = 1;
        while (index < words.length) {
          const word = words[index];
          if (word === undefined) break;
          if (word.text === "-S" || word.text.startsWith("--split-string")) {
            this.effects.unsure.push("env -S splits a string into a command");
            return;
          }
          if (word.text === "-u" || word.text === "-C" || word.text === "--unset" || word.text === "--chdir") index += 2;
          else if (isOption(word)) index += 1;
          else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text)) index += 1;
          else break;
        }
        rest(index, "env");
        return;
      }
      case "xargs": {
        const start = wrappedStart(words, ["-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"]);
        if (start >= words.length) this.effects.invocations.push({ words: [literal("echo")], via: [...via, "xargs"] });
        else rest(start, "xargs");
        return;
      }
      case "watch": {
        const start = wrappedStart(words, ["-n", "-d", "--interval", "--differences"]);
        const script = words.slice(start);
        if (script.length === 0) return;
        const joined = script.every((word) => !word.dynamic) ? literal(script.map((word) => word.text).join(" ")) : { ...literal(""), dynamic: true };
        invocation.transparent = !joined.dynamic;
        this.nested(joined, [...via, "watch"], depth, "watch");
        return;
      }
      case "eval":
        this.effects.unsure.push("eval runs text as a command");
        return;
      case "trap": {
        // `trap "" TERM` ignores a signal; `trap 'cmd' EXIT` runs cmd later: judged like any command.
        const action = plainArguments(words)[0];
        if (action !== undefined && action.text !== "" && action.text !== "-") this.nested(action, [...via, "trap"], depth, "trap");
        return;
      }
      case "find":
        this.readFind(words, via, depth);
        return;
      case "git":
        this.readGit(words);
        return;
      case "sed":
        this.readSed(words);
        return;
      case "awk":
      case "gawk":
      case "mawk":
      case "nawk":
        this.readAwk(words);
        return;
      case "dd":
        for (const word of words.slice(1)) if (word.text.startsWith("of=")) this.effects.writes.push(pathPart(word, 3));
        return;
      case "curl":
      case "wget":
        this.readDownloader(words, name);
        return;
      case "npm":
      case "pnpm":
      case "yarn": {
        const sub = words[1]?.text;
        if (sub === "exec" || sub === "x" || sub === "dlx") rest(wrappedStart(words.slice(1), ["-p", "--package", "-c", "--call"]) + 1, `${name} ${sub}`);
        if (words.some((word) => word.text === "-c" || word.text === "--call")) this.effects.unsure.push(`${name} ${sub ?? ""} --call runs a shell string`);
        return;
      }
      default:
        break;
    }
    if (packageRunners[name] !== undefined) {
      if (words.some((word) => word.text === "-c" || word.text === "--call")) this.effects.unsure.push(`${name} -c runs a shell string`);
      rest(wrappedStart(words, [...(packageRunners[name] ?? []), "-c", "--call"]), name);
      return;
    }
    if (shells.has(name)) {
      this.readShell(words, name, via, depth);
      return;
    }
    const inlineFlags = interpreters[name] ?? (/^python3?\.\d+$/.test(name) ? ["-c"] : undefined);
    if (inlineFlags !== undefined) {
      const inline = words.find((word) => inlineFlags.includes(word.text) || inlineFlags.some((flag) => flag.startsWith("--") && word.text.startsWith(`${flag}=`)));
      const plain = plainArguments(words);
      // `node --test`, `python3 --version`: options that do their own thing instead of reading a program.
      const ownWork = words.some((word) => selfContainedOptions.has(word.text));
      if (inline !== undefined) this.effects.unsure.push(`${name} ${inline.text} runs inline code`);
      else if ((plain.length === 0 && !ownWork) || plain[0]?.text === "-") this.effects.unsure.push(`${name} reads a program from its input`);
      return;
    }
    if (pathWriters.has(name)) {
      const valued = name === "truncate" ? ["-s", "--size", "-r"] : name === "install" ? ["-m", "-o", "-g", "-t"] : ["-t", "-S", "--target-directory", "--suffix"];
      this.effects.writes.push(...plainArguments(words, valued));
      for (const word of words) if (word.text.startsWith("--target-directory=")) this.effects.writes.push(pathPart(word, "--target-directory=".length));
      const target = words.findIndex((word) => word.text === "-t");
      const targetWord = target === -1 ? undefined : words[target + 1];
      if (targetWord !== undefined) this.effects.writes.push(targetWord);
      return;
    }
    if (firstArgumentNotPath.has(name)) this.effects.writes.push(...plainArguments(words).slice(1));
  }

  private readShell(words: ShellWord[], name: string, via: string[], depth: number): void {
    const invocation = this.effects.invocations[this.effects.invocations.length - 1] ?? { words, via };
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index];
      if (word === undefined) break;
      if (word.dynamic) {
        this.effects.unsure.push(`${name} is given a computed argument`);
        return;
      }
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.text) && name !== "busybox") {
        const script = words[index + 1];
        if (script === undefined) this.effects.unsure.push(`${name} -c without a command`);
        else {
          if (!script.dynamic) invocation.transparent = true;
          this.nested(script, [...via, `${name} -c`], depth, `${name} -c`);
        }
        return;
      }
      if (word.text === "-s" || word.text === "-") {
        this.effects.unsure.push(`${name} reads commands from its input`);
        return;
      }
      if (word.text.startsWith("-") || word.text.startsWith("+")) continue;
      // A script file: the invocation itself is what the rules judge.
      return;
    }
    this.effects.unsure.push(`${name} reads commands from its input`);
  }

  private readFind(words: ShellWord[], via: string[], depth: number): void {
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index];
      if (word === undefined) continue;
      if (["-exec", "-execdir", "-ok", "-okdir"].includes(word.text)) {
        const end = words.findIndex((candidate, position) => position > index && (candidate.text === ";" || candidate.text === "+"));
        const inner = words.slice(index + 1, end === -1 ? words.length : end);
        if (inner.length > 0) this.readWords(inner, [...via, `find ${word.text}`], depth);
        if (end === -1) break;
        index = end;
      } else if (word.text === "-delete") {
        this.effects.writes.push(...words.slice(1).filter((candidate, position) => position + 1 < index && !candidate.text.startsWith("-")));
      } else if (["-fprint", "-fprint0", "-fprintf", "-fls"].includes(word.text)) {
        const target = words[index + 1];
        if (target !== undefined) this.effects.writes.push(target);
      }
    }
  }

  private readGit(words: ShellWord[]): void {
    let index = 1;
    for (; index < words.length; index += 1) {
      const word = words[index];
      if (word === undefined) break;
      if (word.text === "-c" || word.text.startsWith("--config-env") || word.text.startsWith("--exec-path") || word.text === "--upload-pack") {
        this.effects.unsure.push(`git ${word.text} can make git run any program`);
        return;
      }
      if (word.text === "-C" || word.text === "--git-dir" || word.text === "--work-tree" || word.text === "--namespace") {
        index += 1;
        continue;
      }
      if (!word.text.startsWith("-")) break;
    }
    const sub = words[index]?.text;
    const args = words.slice(index + 1);
    for (let position = 0; position < args.length; position += 1) {
      const word = args[position];
      if (word === undefined) continue;
      if (word.text.startsWith("--output=")) this.effects.writes.push(pathPart(word, "--output=".length));
      else if (word.text === "--output" || (sub === "archive" && word.text === "-o")) {
        const target = args[position + 1];
        if (target !== undefined) this.effects.writes.push(target);
      } else if (/^--(upload-pack|receive-pack|exec)(=|$)/.test(word.text) || word.text === "-u") {
        if (sub === "clone" || sub === "fetch" || sub === "pull" || sub === "push" || sub === "ls-remote") this.effects.unsure.push(`git ${sub} ${word.text} runs a program`);
      } else if (/^--(ext-diff|textconv)$/.test(word.text)) {
        this.effects.unsure.push(`git ${word.text} runs configured programs`);
      }
    }
    const plain = args.filter((word) => !word.text.startsWith("-"));
    if (sub === "clone" && plain.length >= 2) this.effects.writes.push(plain[plain.length - 1] as ShellWord);
    if (sub === "config") {
      const reading = args.some((word) => /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|--get-urlmatch)$/.test(word.text)) || plain.length < 2;
      if (!reading || args.some((word) => /^--(unset|unset-all|add|replace-all|rename-section|remove-section|edit)$|^-e$/.test(word.text))) {
        const global = args.some((word) => word.text === "--global" || word.text === "--system");
        this.effects.writes.push(literal(global ? "~/.gitconfig" : ".git/config"));
        if (global) this.effects.writes.push({ ...literal("~/.gitconfig"), path: `${process.env["HOME"] ?? "~"}/.gitconfig` });
      }
    }
  }

  private readSed(words: ShellWord[]): void {
    const scripts: ShellWord[] = [];
    let inPlace = false;
    const files: ShellWord[] = [];
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index];
      if (word === undefined) continue;
      if (word.text === "-e" || word.text === "--expression") {
        const script = words[index + 1];
        if (script !== undefined) scripts.push(script);
        index += 1;
      } else if (word.text === "-f" || word.text.startsWith("--file")) {
        this.effects.unsure.push("sed -f runs a script from a file");
        index += 1;
      } else if (/^-[a-zA-Z]*i/.test(word.text) || word.text.startsWith("--in-place")) {
        inPlace = true;
      } else if (isOption(word)) {
        continue;
      } else if (scripts.length === 0 && !words.slice(1, index).some((candidate) => candidate.text === "-e" || candidate.text === "--expression")) {
        scripts.push(word);
      } else files.push(word);
    }
    for (const script of scripts) {
      if (script.dynamic) this.effects.unsure.push("sed is given a computed script");
      else if (sedRunsOrWrites(script.text)) this.effects.unsure.push("the sed script can run commands or write files (e, w)");
    }
    if (inPlace) this.effects.writes.push(...files);
  }

  private readAwk(words: ShellWord[]): void {
    const plain = plainArguments(words, ["-v", "-F", "--assign", "--field-separator"]);
    if (words.some((word) => word.text === "-f" || word.text.startsWith("--file"))) {
      this.effects.unsure.push("awk -f runs a program from a file");
      return;
    }
    const program = plain[0];
    if (program === undefined) return;
    if (program.dynamic) this.effects.unsure.push("awk is given a computed program");
    else if (/system\s*\(|\|\s*(getline|&)|\bprint[f]?\b[^;{}]*[|>]|\|\s*"/.test(program.text)) this.effects.unsure.push("the awk program runs commands or writes files");
  }

  private readDownloader(words: ShellWord[], name: string): void {
    const outputFlags = name === "curl" ? ["-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii"] : ["-O", "--output-document", "-o", "--output-file", "-a", "-P", "--directory-prefix"];
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index];
      if (word === undefined) continue;
      if (outputFlags.includes(word.text)) {
        const target = words[index + 1];
        if (target !== undefined && target.text !== "-") this.effects.writes.push(target);
        index += 1;
      } else if (name === "curl" && (word.text === "-K" || word.text.startsWith("--config"))) {
        this.effects.unsure.push("curl -K reads its options from a file");
      } else {
        const equals = outputFlags.find((flag) => flag.startsWith("--") && word.text.startsWith(`${flag}=`));
        if (equals !== undefined) this.effects.writes.push(pathPart(word, equals.length + 1));
      }
    }
  }
}

function pathPart(word: ShellWord, offset: number): ShellWord {
  const text = word.text.slice(offset);
  return { ...word, text, path: word.dynamic ? undefined : text } as ShellWord;
}

/** Whether a sed script holds an `e` or `w` command, or an `s` command with the `e` or `w` flag. */
export function sedRunsOrWrites(script: string): boolean {
  for (const raw of script.split(/[;\n]/)) {
    const command = raw.trim().replace(/^(\d+|\$|\/(?:[^/\\]|\\.)*\/)(,(\d+|\$|\/(?:[^/\\]|\\.)*\/))?!?\s*/, "");
    if (/^[ewWrR](\s|$)/.test(command) || /^[ewWrR]\S/.test(command) && !/^[a-z]{2}/.test(command)) return true;
    const substitution = /^s(.)/.exec(command);
    if (substitution?.[1] !== undefined) {
      const delimiter = substitution[1];
      let parts = 0;
      let index = 2;
      for (; index < command.length && parts < 2; index += 1) {
        if (command[index] === "\\") index += 1;
        else if (command[index] === delimiter) parts += 1;
      }
      if (/[ew]/.test(command.slice(index))) return true;
    }
  }
  return false;
}

export function readEffects(analysis: ShellAnalysis): CommandEffects {
  const reader = new EffectsReader();
  reader.readAnalysis(analysis, [], 0);
  return reader.effects;
}
