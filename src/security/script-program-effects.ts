/**
 * What `sed` and `awk` do, from their scripts: a script made only of commands
 * that read and print is understood; anything that can run a program or write
 * a file (`sed`'s `e`, `w`, `r`; `awk`'s redirections, pipes and `system()`) or
 * a script cairn cannot see (computed, or from a file) makes the command opaque.
 */
import type { ShellWord } from "./shell-words.js";
import { isOption, plainArguments } from "./command-effects.js";
import type { ProgramContext } from "./program-effects.js";

export function readSed(context: ProgramContext): void {
  const { words, reader, invocation } = context;
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
      reader.opaque(invocation, "sed -f runs a script from a file");
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
    if (script.dynamic) reader.opaque(invocation, "sed is given a computed script");
    else if (!sedScriptUnderstood(script.text)) reader.opaque(invocation, "the sed script holds commands cairn does not fully understand (e, w, r, …)");
  }
  if (inPlace) for (const file of files) reader.write(file);
}

/**
 * Whether a sed script is made only of commands that read and print
 * (`s///` with flags g, p, i, I, m, M or a number; `p`, `d`, `q`, `=`, `n`, `N`,
 * `D`, `P`, `h`, `H`, `g`, `G`, `x`, `y///`, `l`, braces, labels and branches),
 * with addresses. Anything else (`e`, `w`, `r`, `s///e`, `s///w file`) is not understood.
 */
export function sedScriptUnderstood(script: string): boolean {
  const address = /^(\d+|\$|\/(?:[^/\\]|\\.)*\/[IM]*|\\(.)(?:(?!\2).|\\.)*\2)(~\d+)?(,(\d+|\$|\/(?:[^/\\]|\\.)*\/[IM]*|[+~]\d+))?!?\s*/;
  let rest = script.trim();
  while (rest !== "") {
    rest = rest.replace(/^[\s;]+/, "");
    if (rest === "") break;
    rest = rest.replace(address, "");
    const command = rest[0];
    if (command === undefined) break;
    if (command === "s" || command === "y") {
      const delimiter = rest[1];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return false;
      let index = 2;
      let parts = 0;
      for (; index < rest.length && parts < 2; index += 1) {
        if (rest[index] === "\\") index += 1;
        else if (rest[index] === delimiter) parts += 1;
      }
      if (parts < 2) return false;
      const flags = /^[gpiImM0-9]*/.exec(rest.slice(index))?.[0] ?? "";
      if (command === "y" && flags !== "") return false;
      rest = rest.slice(index + flags.length);
      if (!/^\s*($|[;}\n])/.test(rest)) return false;
      continue;
    }
    if (/^[pdqQ=nNDPhHgGxlz{}]/.test(command)) {
      rest = rest.slice(1).replace(/^\s*\d*/, "");
      if (!/^\s*($|[;}\n])/.test(rest)) return false;
      continue;
    }
    if (command === ":" || command === "b" || command === "t" || command === "T") {
      rest = rest.slice(1).replace(/^[^;\n}]*/, "");
      continue;
    }
    return false;
  }
  return true;
}

export function readAwk(context: ProgramContext): void {
  const { words, reader, invocation } = context;
  const plain = plainArguments(words, ["-v", "-F", "--assign", "--field-separator"]);
  if (words.some((word) => /^(-f|--file|-i|--include|-l|--load|-E|--exec)$/.test(word.text) || word.text.startsWith("--file="))) {
    reader.opaque(invocation, "awk runs a program or a library from a file");
    return;
  }
  const program = plain[0];
  if (program === undefined) return;
  if (program.dynamic) reader.opaque(invocation, "awk is given a computed program");
  // Conservative: any output redirection, pipe, system() or getline (which can run a command) is not understood.
  else if (/[|>]|\bsystem\b|\bgetline\b|@|\bclose\b|\bfflush\b/.test(program.text)) reader.opaque(invocation, "the awk program can run commands or write files");
}
