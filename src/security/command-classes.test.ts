/**
 * Command analysis only adds caution: each class of trick an attacker used to
 * get past the rules is decided on the real parse, without the sandbox (where
 * the analysis is all there is) and in it (where a deny rule must still hold).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assessCommand, type PathOracle } from "./command-assessment.js";
import { PermissionRules, rulesFromBlock } from "./permission-rules.js";
import { decideCommand, type SecurityContext } from "./security-decision.js";
import { isReadOnlyInvocation } from "./read-only-programs.js";
import { expandBraces } from "./brace-expansion.js";
import { sedScriptUnderstood } from "./script-program-effects.js";
import type { ShellWord } from "./shell-words.js";

let workspace: string;
let paths: PathOracle;

beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "cairn-classes-")));
  writeFileSync(join(workspace, "secret.txt"), "X=1");
  copyFileSync("/bin/rm", join(workspace, "tidy"));
  paths = {
    cwd: workspace,
    hasIgnoredFiles: () => true,
    facts(path) {
      const absolute = path.startsWith("/") ? path : join(workspace, path);
      const inside = absolute === workspace || absolute.startsWith(`${workspace}/`);
      const relativePath = relative(workspace, absolute);
      return {
        inside,
        ignored: inside && relativePath.startsWith("secret."),
        protectedReason: inside && relativePath.startsWith(".git/hooks") ? "git hooks run code" : undefined,
        credential: absolute.startsWith(join(homedir(), ".ssh")),
        display: inside ? relativePath : absolute,
      };
    },
  };
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const rules = (block: { allow?: string[]; ask?: string[]; deny?: string[] }) => new PermissionRules(rulesFromBlock(block, "test"), workspace);
const standard = rules({ deny: ["Bash(rm:*)", "Bash(curl:*)"], allow: ["Bash(echo:*)", "Bash(git log:*)", "Bash(npm test)"] });
const context = (overrides: Partial<SecurityContext> = {}): SecurityContext => ({ rules: standard, sandbox: "off", yes: true, allowOutsideWrites: false, allowOutsideReads: false, paths, ...overrides });
const decide = async (command: string, overrides: Partial<SecurityContext> = {}) => (await decideCommand(command, context(overrides))).verdict.kind;
const held = ["refuse", "ask-explicit", "ask", "escalate"];

describe("tricks that must not get past the rules without the sandbox (--yes, rules in force)", () => {
  const cases: Array<[string, string]> = [
    ["sed's e command", "sed -n '1e touch ~/pwned' README.md"],
    ["sed's w command", "sed -n 'w /tmp/out' README.md"],
    ["sed s///e", "sed 's/x/touch ~\\/p/e' README.md"],
    ["awk redirection", 'awk \'BEGIN { print "x" > "/etc/x" }\''],
    ["awk pipe", 'awk \'BEGIN { print "x" | "sh" }\''],
    ["env -S", "env -S 'rm important.txt'"],
    ["env -S glued", "env -vS'rm important.txt'"],
    ["taskset", "taskset 1 rm important.txt"],
    ["chrt", "chrt 1 rm important.txt"],
    ["script -c", "script -qc 'rm important.txt' /dev/null"],
    ["su -c", "su -c 'rm important.txt'"],
    ["sort -o outside", "sort -o ~/.bashrc README.md"],
    ["sort -o glued", "sort -o/etc/x README.md"],
    ["uniq IN OUT", "uniq README.md ~/.profile"],
    ["git grep -O", "git grep --open-files-in-pager=rm x"],
    ["git worktree add outside", "git worktree add ../elsewhere"],
    ["a copied binary", "./tidy important.txt"],
    ["a copy made in the line", "cp /bin/rm ./x && ./x important.txt"],
    ["an alias", "shopt -s expand_aliases; alias x=rm; x important.txt"],
    ["a function", "x() { echo; }; x important.txt"],
    ["~user", "cat ~root/.bashrc"],
    ["cd then write", "cd /etc && echo x > f"],
    ["cd then write, relative", "cd .. && echo x > f"],
    ["env -C", "env -C /etc touch f"],
    ["braces naming an ignored file", "cat secret.{txt,md}"],
    ["BASH_ENV through env", "env BASH_ENV=./x bash -c true"],
    ["GIT_CONFIG through env", "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=sh git log"],
    ["PYTHONSTARTUP", "PYTHONSTARTUP=x python3 app.py"],
    ["NODE_OPTIONS", "NODE_OPTIONS=--require=./x node app.js"],
    ["eval", "eval rm important.txt"],
    ["bash <<<", "bash <<< 'rm important.txt'"],
    ["an allowed echo writing what an allowed npm test runs", "echo 'rm important.txt' > test.sh && npm test"],
    ["grep -r with ignored files", "grep -r KEY ."],
    ["find -exec cat", "find . -name '*.txt' -exec cat {} \\;"],
    ["git show of an ignored file", "git show HEAD:secret.txt"],
    ["git log -p", "git log -p"],
    ["a computed name", "cat $(echo secret.txt)"],
    ["tar -C outside", "tar xf a.tar -C /etc"],
    ["a link made earlier in the line", "ln -s ~/.bashrc rc && echo evil >> rc"],
    ["a hard link made earlier in the line", "ln /etc/hosts h && echo evil >> h"],
  ];
  for (const [what, command] of cases) {
    it(`${what}: ${command}`, async () => {
      expect(held, command).toContain(await decide(command));
    });
  }
});

describe("in the sandbox", () => {
  const sandboxed = { sandbox: "workspace-write" as const };
  it("what the parse cannot follow runs contained, unless a deny rule is in force", async () => {
    const open = rules({});
    for (const command of ["eval ls", "bash <<< 'ls'", "python3 -c 'print(1)'", "sed -n '1e ls' x"]) {
      expect(await decide(command, { ...sandboxed, rules: open }), command).toBe("allow");
      expect(await decide(command, sandboxed), command).toBe("ask-explicit");
    }
  });
  it("a rule the user wrote lifts the ask for the program it names, in the sandbox and out", async () => {
    const python = rules({ deny: ["Bash(rm:*)"], allow: ["Bash(python3:*)"] });
    expect(await decide("python3 -c 'print(1)'", { ...sandboxed, rules: python })).toBe("allow");
    expect(await decide("python3 -c 'print(1)'", { rules: python })).toBe("allow");
    // It does not vouch for what is beyond any rule (eval, hidden characters).
    expect(await decide("eval python3 x", { rules: python })).toBe("ask-explicit");
  });
  it("a deny rule's program run by another name is asked", async () => {
    for (const command of ["taskset 1 rm important.txt", "./tidy important.txt", "script -qc 'rm x' /dev/null", "cp /bin/rm x", "nohup ionice -c3 unknown-wrapper rm x"]) {
      expect(["refuse", "ask-explicit"], command).toContain(await decide(command, sandboxed));
    }
  });
  it("a write the parse sees into a protected path asks to run outside the sandbox", async () => {
    expect(await decide("echo x > .git/hooks/pre-commit", sandboxed)).toBe("escalate");
  });
  it("ordinary commands run without asking, denied ones never", async () => {
    expect(await decide("npm run build", sandboxed)).toBe("allow");
    expect(await decide("rm important.txt", sandboxed)).toBe("refuse");
  });
});

describe("where the sandbox cannot run (nobody turned it off)", () => {
  const unavailable = { sandboxUnavailable: true };
  it("commands that are not known read-only are asked, even with --yes; read-only ones and rule-named ones run", async () => {
    expect(await decide("make build", unavailable)).toBe("ask-explicit");
    expect(await decide("npm test", unavailable)).toBe("allow");
    expect(await decide("ls -la", unavailable)).toBe("settings");
    expect((await decideCommand("ls -la", context(unavailable))).assessment.readOnly).toBe(true);
  });
});

const words = (command: string): ShellWord[] => command.split(" ").map((text) => ({ text, dynamic: false, glob: false, brace: false, path: text }));

describe("read-only means every program and every option is on the known-safe list", () => {
  it("options that write or run are not read-only", () => {
    for (const command of [
      "sort -o out x",
      "sort --output=out x",
      "uniq in out",
      "tree -o out",
      "rg --pre sh x",
      "git grep -O x",
      "date -s 2020-01-01",
      "hostname evil",
      "find . -delete",
      "find . -exec ls ;",
      "xxd -r a b",
      "git log --output=x",
      "git branch new",
      "git config user.name x",
      "env rm x",
    ]) {
      expect(isReadOnlyInvocation(words(command)), command).toBe(false);
    }
  });
  it("ordinary reading is read-only", () => {
    for (const command of [
      "ls -la",
      "cat a b",
      "head -n 5 x",
      "tail -n5 x",
      "grep -rn x .",
      "rg -n x",
      "find . -name x -type f",
      "git log --oneline -5",
      "git status --short",
      "git diff HEAD~1",
      "sort -k 2 -n x",
      "uniq -c x",
      "wc -l x",
      "git branch -a",
      "jq -r .x f",
    ]) {
      expect(isReadOnlyInvocation(words(command)), command).toBe(true);
    }
  });
  it("commandsSafe runs what is read-only and nothing the model could make write", async () => {
    expect((await assessCommand({ command: "cat README.md | sort | uniq -c", rules: standard, paths })).readOnly).toBe(true);
    expect((await assessCommand({ command: "cat README.md > out", rules: standard, paths })).readOnly).toBe(false);
    expect((await assessCommand({ command: "sed -n 1p x", rules: standard, paths })).readOnly).toBe(false);
  });
});

describe("the pieces", () => {
  it("brace expansion as bash does it", () => {
    expect(expandBraces("secret.{txt,md}")).toEqual(["secret.txt", "secret.md"]);
    expect(expandBraces("a{1..3}")).toEqual(["a1", "a2", "a3"]);
    expect(expandBraces("{a,b{c,d}}x")).toEqual(["ax", "bcx", "bdx"]);
    expect(expandBraces("plain")).toEqual(["plain"]);
  });
  it("sed scripts are understood only when they only read and print", () => {
    for (const script of ["s/a/b/g", "1,5p", "/x/d", "s|a|b|2", "$!N;P;D", "y/abc/xyz/", ":a;N;ba"]) expect(sedScriptUnderstood(script), script).toBe(true);
    for (const script of ["1e ls", "w out", "s/a/b/w out", "s/a/b/e", "r /etc/passwd", "1!G;h;$!d;e date"]) expect(sedScriptUnderstood(script), script).toBe(false);
  });
});
