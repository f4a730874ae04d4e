/**
 * What "read-only" means for a command (issue 26): every program and every
 * option is on a known-safe list. `autoApprove.commandsSafe`, `--on-ask deny`
 * and read-only subagents run such commands without asking; anything else may
 * run code and write anywhere unless a rule the user wrote names it.
 *
 * Each program lists the options it takes (with or without a value) and how
 * many plain arguments it may have; an option not on its list, or one that
 * writes a file or runs a program (`sort -o`, `rg --pre`, `tree -o`,
 * `git grep -O`), makes the invocation not read-only.
 */
import type { ShellWord } from "./shell-words.js";
import { programName } from "./command-effects.js";

interface ProgramRule {
  /** Options without a value (`-n`), as written; combined short flags (`-la`) are split. */
  flags?: string;
  /** Options that take a value (`-n 5`, `-n5`, `--lines=5`). */
  valued?: string;
  /** Any option is fine (the program has none that writes or runs). */
  anyFlag?: boolean;
  /** At most this many plain arguments (`uniq IN OUT` writes OUT). */
  maximumArguments?: number;
  /** A check of the words beyond the option lists. */
  check?: (words: ShellWord[]) => boolean;
}

const set = (text: string | undefined): Set<string> => new Set((text ?? "").split(/\s+/).filter((word) => word !== ""));

const anyOption: ProgramRule = { anyFlag: true };

const rules: Record<string, ProgramRule> = {
  ls: anyOption,
  pwd: anyOption,
  echo: anyOption,
  printf: anyOption,
  true: anyOption,
  false: anyOption,
  test: anyOption,
  "[": anyOption,
  cat: anyOption,
  tac: anyOption,
  rev: anyOption,
  nl: anyOption,
  wc: anyOption,
  cut: anyOption,
  tr: anyOption,
  fold: anyOption,
  fmt: anyOption,
  expand: anyOption,
  unexpand: anyOption,
  paste: anyOption,
  comm: anyOption,
  join: anyOption,
  column: anyOption,
  od: anyOption,
  hexdump: anyOption,
  basename: anyOption,
  dirname: anyOption,
  realpath: anyOption,
  readlink: anyOption,
  whoami: anyOption,
  id: anyOption,
  groups: anyOption,
  uname: anyOption,
  arch: anyOption,
  nproc: anyOption,
  which: anyOption,
  whereis: anyOption,
  type: anyOption,
  seq: anyOption,
  yes: anyOption,
  stat: anyOption,
  du: anyOption,
  df: anyOption,
  diff: anyOption,
  cmp: anyOption,
  grep: anyOption,
  egrep: anyOption,
  fgrep: anyOption,
  md5sum: anyOption,
  sha1sum: anyOption,
  sha224sum: anyOption,
  sha256sum: anyOption,
  sha384sum: anyOption,
  sha512sum: anyOption,
  b2sum: anyOption,
  cksum: anyOption,
  strings: anyOption,
  file: { flags: "-b -i -L -h -z -k -s -r -0 --brief --mime --mime-type --mime-encoding --dereference --no-dereference -N --no-pad", valued: "-F -e -P --separator" },
  head: { flags: "-q -v -z --quiet --silent --verbose --zero-terminated", valued: "-n -c --lines --bytes" },
  tail: { flags: "-q -v -z -f -F -r --quiet --silent --verbose --follow --retry --zero-terminated", valued: "-n -c --lines --bytes --pid -s --sleep-interval --max-unchanged-stats" },
  sort: {
    flags:
      "-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check --merge --stable --unique --zero-terminated",
    valued: "-k -t -S -T --key --field-separator --buffer-size --temporary-directory --parallel --sort --random-source",
  },
  uniq: { flags: "-c -d -D -i -u -z --count --repeated --ignore-case --unique --zero-terminated", valued: "-f -s -w --skip-fields --skip-chars --check-chars --all-repeated --group", maximumArguments: 1 },
  xxd: { flags: "-a -b -C -e -E -i -p -u -ps -plain -autoskip -bits -capitalize -EBCDIC -include -uppercase", valued: "-c -g -l -n -o -s -cols -groupsize -len -name -offset -seek", maximumArguments: 1 },
  tree: { flags: "-a -d -f -i -l -x -p -s -h -u -g -D -F -q -N -Q -r -t -c -U -v -C -n -J -X --noreport --dirsfirst --du --si --prune", valued: "-L -P -I --filelimit --charset --timefmt --sort" },
  date: { flags: "-u -R -I --utc --universal --rfc-email --iso-8601 --rfc-3339", valued: "-d --date -r --reference", check: (words) => !words.slice(1).some((word) => /^-s|^--set/.test(word.text)) },
  hostname: { flags: "-f -s -i -I -d -A -a --fqdn --short --ip-address --all-ip-addresses --domain --all-fqdns --alias", maximumArguments: 0 },
  env: { flags: "-0 --null", maximumArguments: 0 },
  printenv: { flags: "-0 --null" },
  jq: {
    flags: "-r -j -c -n -e -s -S -C -M -a -R --raw-output --join-output --compact-output --null-input --exit-status --slurp --sort-keys --color-output --monochrome-output --ascii-output --raw-input --tab",
    valued: "--arg --argjson --slurpfile --rawfile --indent -f --from-file",
  },
  find: {
    flags: "-L -H -P -print -print0 -ls -prune -quit -empty -readable -writable -executable -depth -mount -xdev -daystart -follow -nouser -nogroup -true -false -not -a -o -and -or ! ( ) -noleaf",
    valued:
      "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -maxdepth -mindepth -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -perm -user -group -uid -gid -links -inum -samefile -lname -ilname -regextype -printf -used -fstype -newermt",
  },
  rg: {
    flags:
      "-i -s -S -w -x -v -c -l -L -n -N -H -I -o -p -u -uu -uuu -a -F -U -z -0 -. --ignore-case --case-sensitive --smart-case --word-regexp --line-regexp --invert-match --count --count-matches --files --files-with-matches --files-without-match --follow --line-number --no-line-number --with-filename --no-filename --only-matching --pretty --hidden --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-parent --text --fixed-strings --multiline --multiline-dotall --json --vimgrep --no-heading --heading --column --byte-offset --trim --stats --sort-files --null --color --no-messages --unrestricted --one-file-system --crlf --pcre2 --invert-match --passthru --quiet -q --list-file-types --debug",
    valued:
      "-e -g -t -T -m -A -B -C -M -j -E -r --regexp --glob --iglob --type --type-not --max-count --after-context --before-context --context --max-columns --threads --encoding --replace --max-depth --max-filesize --sort --sortr --color --colors --type-add --context-separator --path-separator --field-match-separator --field-context-separator --engine --regex-size-limit --dfa-size-limit",
  },
  git: { anyFlag: true, check: (words) => gitReadOnly(words) },
};

/** git subcommands that only read, with the options of theirs that write or run something. */
const gitReaders: Record<string, RegExp | undefined> = {
  status: undefined,
  log: /^--(output|ext-diff|textconv)(=|$)/,
  diff: /^--(output|ext-diff|textconv)(=|$)/,
  show: /^--(output|ext-diff|textconv)(=|$)/,
  blame: /^--(contents)(=|$)/,
  "rev-parse": undefined,
  "rev-list": undefined,
  "ls-files": /^--(with-tree)(=|$)/,
  "ls-tree": undefined,
  "cat-file": /^--(textconv|filters)$/,
  describe: undefined,
  shortlog: undefined,
  grep: /^(-O|--open-files-in-pager)/,
  "merge-base": undefined,
  "name-rev": undefined,
  "show-ref": undefined,
  "for-each-ref": undefined,
  reflog: undefined,
  whatchanged: /^--(output|ext-diff|textconv)(=|$)/,
  version: undefined,
};

/** The git global options that are safe (`-C` moves the folder, which the caller's path checks do not see: not here). */
const gitGlobalFlags = set("--no-pager -P --paginate -p --no-replace-objects --literal-pathspecs --no-optional-locks --bare");

function gitReadOnly(words: ShellWord[]): boolean {
  let index = 1;
  while (index < words.length && (words[index]?.text ?? "").startsWith("-")) {
    if (!gitGlobalFlags.has(words[index]?.text ?? "")) return false;
    index += 1;
  }
  const sub = words[index];
  if (sub === undefined || sub.dynamic) return false;
  const args = words.slice(index + 1);
  if (sub.text === "branch" || sub.text === "tag" || sub.text === "remote" || sub.text === "stash") {
    // Listing only: `git branch`, `git branch -a -v`, `git tag -l`, `git remote -v`, `git stash list`.
    if (sub.text === "stash") return args[0]?.text === "list" && args.length === 1;
    return args.every((word) => /^-(a|r|v|vv|l|-list|-all|-remotes|-verbose|-show-current|-contains|-merged|-no-merged)$/.test(word.text));
  }
  if (sub.text === "config")
    return args.some((word) => /^--(get|get-all|get-regexp|list)$|^-l$/.test(word.text)) && !args.some((word) => /^--(add|unset|unset-all|replace-all|edit|rename-section|remove-section)$|^-e$/.test(word.text));
  if (!(sub.text in gitReaders)) return false;
  const unsafe = gitReaders[sub.text];
  return !args.some((word) => word.dynamic || (unsafe !== undefined && unsafe.test(word.text)));
}

function splitFlags(word: string): string[] {
  // `-la` is `-l -a`; `-n5` is `-n` with its value; long options stay whole (`--lines=5` is `--lines`).
  if (word.startsWith("--")) return [word.split("=")[0] ?? word];
  if (/^-[A-Za-z]{2,}$/.test(word)) return [...word.slice(1)].map((letter) => `-${letter}`);
  return [word];
}

/** Whether one invocation (its words, the program first) only reads: the program and every option it is given are known safe. */
export function isReadOnlyInvocation(words: ShellWord[]): boolean {
  const first = words[0];
  if (first === undefined || first.dynamic) return false;
  const rule = rules[programName(first)];
  if (rule === undefined) return false;
  if (rule.check !== undefined && !rule.check(words)) return false;
  if (rule.anyFlag === true) return !words.some((word) => word.dynamic && word.text.startsWith("-"));
  const flags = set(rule.flags);
  const valued = set(rule.valued);
  let plain = 0;
  let afterDoubleDash = false;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index];
    if (word === undefined) continue;
    // A computed word could be any option, `--output` included.
    if (word.dynamic) return false;
    if (afterDoubleDash || !word.text.startsWith("-") || word.text === "-") {
      plain += 1;
      continue;
    }
    if (word.text === "--") {
      afterDoubleDash = true;
      continue;
    }
    const parts = splitFlags(word.text);
    const whole = word.text.split("=")[0] ?? word.text;
    if (valued.has(whole)) {
      if (!word.text.includes("=")) index += 1;
      continue;
    }
    // A short valued option glued to its value (`-n5`, `-A3`).
    if (/^-[A-Za-z]/.test(word.text) && valued.has(word.text.slice(0, 2))) continue;
    if (!parts.every((part) => flags.has(part))) return false;
  }
  return rule.maximumArguments === undefined || plain <= rule.maximumArguments;
}

/** The programs on the list, for documentation and `cairn permissions`. */
export const readOnlyProgramNames: readonly string[] = Object.keys(rules).sort();
