/**
 * What particular programs write, run and read, from their arguments: `find
 * -exec`, git's subcommands and its options that run programs, `sed` and
 * `awk` scripts (script-program-effects.ts), downloaders' output files, programs that write to their path
 * arguments (`cp`, `tee`, `sort -o`, `uniq IN OUT`, `tar -C`), and programs
 * that read whole folders or git's history.
 */
import { analyzeShell } from "./shell-analysis.js";
import type { ShellWord } from "./shell-words.js";
import { firstArgumentNotPath, pathWriters } from "./program-tables.js";
import { literal, plainArguments, wrappedStart, type Base, type EffectsReader, type Invocation } from "./command-effects.js";
import { readAwk, readSed } from "./script-program-effects.js";

/** One program of a command line, with the reader its effects are told to. */
export interface ProgramContext {
  name: string;
  words: ShellWord[];
  invocation: Invocation;
  reader: EffectsReader;
  via: string[];
  depth: number;
}

function pathPart(word: ShellWord, offset: number): ShellWord {
  const text = word.text.slice(offset);
  return { ...word, text, path: word.dynamic ? undefined : text } as ShellWord;
}

/** Wrappers that take a fixed argument before the command (`taskset MASK cmd`, `chrt PRIO cmd`), or run a `-c` string. */
const argumentWrappers: Record<string, { valued: string[]; leading: number }> = {
  taskset: { valued: [], leading: 1 },
  chrt: { valued: [], leading: 1 },
  numactl: { valued: [], leading: 0 },
  prlimit: { valued: [], leading: 0 },
  setarch: { valued: [], leading: 1 },
  unshare: { valued: [], leading: 0 },
  nsenter: { valued: ["-t", "--target"], leading: 0 },
  chroot: { valued: [], leading: 1 },
  "systemd-run": { valued: ["-u", "--unit", "-p", "--property"], leading: 0 },
  "xvfb-run": { valued: ["-n", "-s", "-f", "-e"], leading: 0 },
  "dbus-run-session": { valued: [], leading: 0 },
  fakeroot: { valued: [], leading: 0 },
  valgrind: { valued: [], leading: 0 },
  catchsegv: { valued: [], leading: 0 },
  cpulimit: { valued: ["-l", "-p", "-e"], leading: 0 },
};
const stringRunners: Record<string, string[]> = { script: ["-c", "--command"], su: ["-c", "--command"], runuser: ["-c", "--command"], sg: [], ssh: [] };

/** Programs that read folders recursively or git's history: the ignore file cannot hold for them without the sandbox. */
function broadRead(context: ProgramContext): string | undefined {
  const { name, words } = context;
  const texts = words.map((word) => word.text);
  const has = (pattern: RegExp): boolean => texts.slice(1).some((text) => pattern.test(text));
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
      return has(/^-[a-zA-Z]*[rR]|^--recursive|^--dereference-recursive|^-d$|^--directories=recurse/) ? `${name} -r` : undefined;
    case "rg":
    case "ag":
    case "ack":
    case "ack-grep":
      return name;
    case "tar":
      return has(/^-?[a-zA-Z]*c|^--create/) ? "tar c" : undefined;
    case "zip":
      return has(/^-[a-zA-Z]*r|^--recurse/) ? "zip -r" : undefined;
    case "cp":
    case "scp":
      return has(/^-[a-zA-Z]*[rRa]|^--recursive|^--archive/) ? `${name} -r` : undefined;
    case "rsync":
    case "xargs":
      return name;
    default:
      return undefined;
  }
}

/** Programs that print or copy the files they are given: a name computed at run time could be a file the ignore file hides. */
const fileReaders = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "strings",
  "od",
  "xxd",
  "hexdump",
  "base64",
  "nl",
  "tac",
  "cp",
  "scp",
  "rsync",
  "tar",
  "zip",
  "sort",
  "uniq",
  "cut",
  "paste",
  "diff",
  "cmp",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "sed",
  "awk",
  "jq",
  "md5sum",
  "sha256sum",
  "file",
  "wc",
  "column",
  "fold",
  "rev",
  "tee",
  "dd",
  "openssl",
  "gpg",
  "python3",
  "node",
]);

export function readProgramEffects(context: ProgramContext): void {
  const { name, words, reader } = context;
  const broad = broadRead(context);
  if (broad !== undefined) reader.effects.broadReads.push(broad);
  if (fileReaders.has(name) && words.slice(1).some((word) => word.dynamic && word.path === undefined && !word.text.startsWith("-"))) reader.effects.broadReads.push(`${name} with a file name computed when it runs`);
  const wrapper = argumentWrappers[name];
  if (wrapper !== undefined) {
    const inner = words.slice(wrappedStart(words, wrapper.valued, wrapper.leading));
    if (inner.length > 0) reader.readWords(inner, [...context.via, name], context.depth);
    return;
  }
  const flags = stringRunners[name];
  if (flags !== undefined) {
    const at = words.findIndex((word) => flags.includes(word.text));
    const script = at === -1 ? undefined : words[at + 1];
    if (script !== undefined) reader.nested(script, [...context.via, `${name} ${words[at]?.text ?? ""}`], context.depth, `${name} -c`, context.invocation);
    else if (name === "ssh" || name === "sg") reader.opaque(context.invocation, `${name} runs a command elsewhere`);
    if (name === "script") for (const word of plainArguments(words, flags)) reader.write(word);
    return;
  }
  switch (name) {
    case "find":
      readFind(context);
      return;
    case "git":
      readGit(context);
      return;
    case "sed":
      readSed(context);
      return;
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      readAwk(context);
      return;
    case "dd":
      for (const word of words.slice(1)) if (word.text.startsWith("of=")) reader.write(pathPart(word, 3));
      return;
    case "curl":
    case "wget":
      readDownloader(context);
      return;
    case "sort":
      for (let index = 1; index < words.length; index += 1) {
        const word = words[index];
        if (word === undefined) continue;
        if ((word.text === "-o" || word.text === "--output") && words[index + 1] !== undefined) reader.write(words[index + 1] as ShellWord);
        else if (word.text.startsWith("--output=")) reader.write(pathPart(word, "--output=".length));
        else if (/^-[a-zA-Z]*o./.test(word.text)) reader.write(pathPart(word, word.text.indexOf("o") + 1));
        else if (word.text.startsWith("--compress-program")) reader.opaque(context.invocation, "sort --compress-program runs a program");
      }
      return;
    case "uniq": {
      const output = plainArguments(words, ["-f", "-s", "-w"])[1];
      if (output !== undefined) reader.write(output);
      return;
    }
    case "tar":
      readTar(context);
      return;
    case "unzip": {
      const at = words.findIndex((word) => word.text === "-d");
      const target = at === -1 ? undefined : words[at + 1];
      reader.write(target ?? literal("."));
      return;
    }
    case "gzip":
    case "gunzip":
    case "bzip2":
    case "bunzip2":
    case "xz":
    case "unxz":
    case "zstd":
    case "unzstd":
      if (!words.some((word) => word.text === "-c" || word.text === "--stdout" || word.text === "-t")) for (const word of plainArguments(words)) reader.write(word);
      return;
    default:
      break;
  }
  if (name === "ln") {
    const plain = plainArguments(words, ["-t", "-S", "--target-directory", "--suffix"]);
    const link = plain.length >= 2 ? plain[plain.length - 1] : undefined;
    const target = plain[0];
    if (link !== undefined && target !== undefined) {
      reader.effects.links.push({ link: { word: link, base: reader.base }, target: { word: target, base: reader.base }, symbolic: words.some((word) => /^-[a-zA-Z]*s|^--symbolic$/.test(word.text)) });
    }
  }
  if (pathWriters.has(name)) {
    const valued = name === "truncate" ? ["-s", "--size", "-r"] : name === "install" ? ["-m", "-o", "-g", "-t"] : ["-t", "-S", "--target-directory", "--suffix"];
    for (const word of plainArguments(words, valued)) reader.write(word);
    for (const word of words) if (word.text.startsWith("--target-directory=")) reader.write(pathPart(word, "--target-directory=".length));
    const target = words.findIndex((word) => word.text === "-t");
    const targetWord = target === -1 ? undefined : words[target + 1];
    if (targetWord !== undefined) reader.write(targetWord);
    return;
  }
  if (firstArgumentNotPath.has(name)) for (const word of plainArguments(words).slice(1)) reader.write(word);
}

function readFind(context: ProgramContext): void {
  const { words, reader } = context;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined) continue;
    if (["-exec", "-execdir", "-ok", "-okdir"].includes(word.text)) {
      const end = words.findIndex((candidate, position) => position > index && (candidate.text === ";" || candidate.text === "+"));
      const inner = words.slice(index + 1, end === -1 ? words.length : end);
      if (inner.length > 0) {
        reader.effects.broadReads.push(`find ${word.text}`);
        reader.readWords(inner, [...context.via, `find ${word.text}`], context.depth);
      }
      if (end === -1) break;
      index = end;
    } else if (word.text === "-delete") {
      for (const candidate of words.slice(1, index)) if (!candidate.text.startsWith("-")) reader.write(candidate);
    } else if (["-fprint", "-fprint0", "-fprintf", "-fls"].includes(word.text)) {
      const target = words[index + 1];
      if (target !== undefined) reader.write(target);
    }
  }
}

/** git's subcommands that read history (content of any commit, ignored files included when they were ever committed). */
const historyReaders = new Set(["show", "log", "diff", "cat-file", "grep", "archive", "bundle", "format-patch", "blame", "stash", "whatchanged", "fast-export", "diff-tree", "rev-list", "reflog"]);

function readGit(context: ProgramContext): void {
  const { words, reader, invocation } = context;
  let index = 1;
  let base: Base = reader.base;
  for (; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined) break;
    if (word.text === "-c" || word.text.startsWith("--config-env") || word.text.startsWith("--exec-path") || word.text === "--upload-pack") {
      reader.opaque(invocation, `git ${word.text} can make git run any program`);
      return;
    }
    if (word.text === "-C") {
      const target = words[index + 1];
      base = target === undefined || target.dynamic ? null : target.path?.startsWith("/") === true ? target.path : base === null ? null : base === undefined ? target.text : `${base}/${target.text}`;
      index += 1;
      continue;
    }
    if (word.text === "--git-dir" || word.text === "--work-tree" || word.text === "--namespace") {
      index += 1;
      continue;
    }
    if (!word.text.startsWith("-")) break;
  }
  const sub = words[index]?.text;
  const args = words.slice(index + 1);
  if (sub !== undefined && historyReaders.has(sub)) reader.effects.broadReads.push(`git ${sub}`);
  for (let position = 0; position < args.length; position += 1) {
    const word = args[position];
    if (word === undefined) continue;
    if (word.text.startsWith("--output=")) reader.write(pathPart(word, "--output=".length), base);
    else if (word.text === "--output" || ((sub === "archive" || sub === "format-patch") && word.text === "-o")) {
      const target = args[position + 1];
      if (target !== undefined) reader.write(target, base);
    } else if (/^--(upload-pack|receive-pack|exec)(=|$)/.test(word.text) || word.text === "-u") {
      if (sub === "clone" || sub === "fetch" || sub === "pull" || sub === "push" || sub === "ls-remote") reader.opaque(invocation, `git ${sub} ${word.text} runs a program`);
    } else if (/^--(ext-diff|textconv)$/.test(word.text)) {
      reader.opaque(invocation, `git ${word.text} runs configured programs`);
    } else if (sub === "grep" && /^(-O|--open-files-in-pager)/.test(word.text)) {
      reader.opaque(invocation, "git grep --open-files-in-pager runs a program");
    }
  }
  const plain = args.filter((word) => !word.text.startsWith("-"));
  if (sub === "clone" && plain.length >= 2) reader.write(plain[plain.length - 1] as ShellWord, base);
  if (sub === "init") reader.write(plain[0] ?? literal("."), base);
  if (sub === "worktree" && plain[0]?.text === "add" && plain[1] !== undefined) reader.write(plain[1], base);
  if (sub === "bundle" && plain[0]?.text === "create" && plain[1] !== undefined) reader.write(plain[1], base);
  if (sub === "submodule" || sub === "filter-branch" || sub === "bisect" || (sub === "rebase" && args.some((word) => /^(-x|--exec)/.test(word.text)))) {
    reader.opaque(invocation, `git ${sub} can run commands`);
  }
  if (sub === "config") {
    const reading = args.some((word) => /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|--get-urlmatch)$/.test(word.text)) || plain.length < 2;
    if (!reading || args.some((word) => /^--(unset|unset-all|add|replace-all|rename-section|remove-section|edit)$|^-e$/.test(word.text))) {
      const global = args.some((word) => word.text === "--global" || word.text === "--system");
      reader.write(global ? { ...literal("~/.gitconfig"), path: `${process.env["HOME"] ?? "~"}/.gitconfig` } : literal(".git/config"), global ? undefined : base);
    }
  }
}

function readDownloader(context: ProgramContext): void {
  const { words, reader, invocation, name } = context;
  const outputFlags =
    name === "curl"
      ? ["-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--etag-save", "--hsts", "--alt-svc"]
      : ["-O", "--output-document", "-o", "--output-file", "-a", "-P", "--directory-prefix"];
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined) continue;
    if (outputFlags.includes(word.text)) {
      const target = words[index + 1];
      if (target !== undefined && target.text !== "-") reader.write(target);
      index += 1;
    } else if (name === "curl" && (word.text === "-K" || word.text.startsWith("--config"))) {
      reader.opaque(invocation, "curl -K reads its options from a file");
    } else if (name === "curl" && (word.text === "-O" || word.text === "--remote-name" || word.text === "--remote-name-all" || word.text === "-J")) {
      reader.write(literal("."));
    } else {
      const equals = outputFlags.find((flag) => flag.startsWith("--") && word.text.startsWith(`${flag}=`));
      if (equals !== undefined) reader.write(pathPart(word, equals.length + 1));
    }
  }
  if (name === "wget" && !words.some((word) => ["-O", "--output-document", "-P", "--directory-prefix"].includes(word.text.split("=")[0] ?? ""))) reader.write(literal("."));
}

function readTar(context: ProgramContext): void {
  const { words, reader } = context;
  const first = words[1]?.text ?? "";
  const mode = /^-?[a-zA-Z]*[xcrtuA]/.exec(first)?.[0] ?? "";
  let archive: ShellWord | undefined;
  let directory: ShellWord | undefined;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined) continue;
    if (word.text === "-C" || word.text === "--directory") directory = words[index + 1];
    else if (word.text.startsWith("--directory=")) directory = pathPart(word, "--directory=".length);
    else if (word.text === "-f" || word.text === "--file") archive = words[index + 1];
    else if (word.text.startsWith("--file=")) archive = pathPart(word, "--file=".length);
    else if (index === 1 && !word.text.startsWith("--") && /f/.test(word.text)) archive = words[index + 1];
  }
  const extracting = /x/.test(mode) || words.some((word) => word.text === "--extract" || word.text === "--get");
  const creating = /[cru]/.test(mode) || words.some((word) => word.text === "--create" || word.text === "--append" || word.text === "--update");
  if (extracting) {
    reader.write(directory ?? literal("."));
    if (words.some((word) => word.text === "-P" || word.text === "--absolute-names")) reader.write({ ...literal("/"), path: "/" });
  }
  if (creating && archive !== undefined && archive.text !== "-") reader.write(archive);
  if (words.some((word) => /^--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script)(=|$)|^-I$|^-F$/.test(word.text))) {
    reader.opaque(context.invocation, "tar runs a program it is given");
  }
}

/** A string argument, read as a command line, for the programs it would run (caution for deny rules). */
export function commandsInText(text: string): ShellWord[][] {
  if (!/\s/.test(text)) return [];
  try {
    return analyzeShell(text).commands.map((command) => command.words);
  } catch {
    return [];
  }
}
