import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assessCommand, type PathOracle } from "./command-assessment.js";
import { PermissionRules, rulesFromBlock } from "./permission-rules.js";
import { decideCommand, type SecurityContext } from "./security-decision.js";

let workspace: string;
let paths: PathOracle;

beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "cairn-assess-")));
  writeFileSync(join(workspace, "secret.env"), "X=1");
  paths = {
    cwd: workspace,
    facts(path) {
      const absolute = path.startsWith("/") ? path : join(workspace, path);
      const inside = absolute === workspace || absolute.startsWith(`${workspace}/`);
      const relativePath = relative(workspace, absolute);
      return {
        inside,
        ignored: inside && relativePath.endsWith(".env"),
        protectedReason: inside && relativePath.startsWith(".cairn") ? "cairn's project configuration" : undefined,
        credential: absolute.startsWith(join(homedir(), ".ssh")),
        display: inside ? relativePath : absolute,
      };
    },
  };
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const rules = (block: { allow?: string[]; ask?: string[]; deny?: string[] }) => new PermissionRules(rulesFromBlock(block, "test"), workspace);
const standard = rules({ deny: ["Bash(rm:*)", "Bash(curl:*)"], allow: ["Bash(echo:*)", "Bash(git log:*)"] });
const assess = (command: string, ruleSet = standard) => assessCommand({ command, rules: ruleSet, paths });
const context = (overrides: Partial<SecurityContext> = {}): SecurityContext => ({ rules: standard, sandbox: "off", yes: true, allowOutsideWrites: false, allowOutsideReads: false, paths, ...overrides });
const decide = async (command: string, overrides: Partial<SecurityContext> = {}) => (await decideCommand(command, context(overrides))).verdict.kind;

describe("commands are decided on the real bash parse", () => {
  it("sees every simple command in chains, pipes, subshells, substitutions and here-docs", async () => {
    const found = await assess("git log && (cd x; ls) | wc -l; echo $(whoami) `id` <(uname) > /dev/null; cat <<EOF\n$(hostname)\nEOF");
    expect(found.invocations).toEqual(expect.arrayContaining(["git log", "cd x", "ls", "wc -l", "echo … … …", "whoami", "id", "uname", "cat", "hostname"]));
    expect(found.unsure).toEqual([]);
  });

  it("a rule matches on word boundaries: never git logout, never git log && rm", async () => {
    expect((await assess("git log --oneline")).allowedByRules).toBe(true);
    expect((await assess("git logout")).allowedByRules).toBe(false);
    expect((await assess("git log && rm -rf x")).denied?.rule.text).toBe("Bash(rm:*)");
    expect((await assess("echo ok; /bin/rm -rf x")).denied?.invocation).toBe("rm -rf x");
  });

  it("environment assignments do not hide the command; wrappers run their argument", async () => {
    for (const command of [
      "FOO=1 rm x",
      "env -i A=1 rm x",
      "sudo -u root rm x",
      "timeout 5 rm x",
      "nice -n 5 rm x",
      "command rm x",
      "builtin rm x",
      "xargs rm < list",
      "sh -c 'rm x'",
      'bash -lc "echo a; rm x"',
      "nohup rm x",
      "find . -name '*.o' -exec rm {} \\;",
      "npx rm x",
      "npm exec -- rm x",
      "trap 'rm x' EXIT",
    ]) {
      expect((await assess(command)).denied?.rule.text, command).toBe("Bash(rm:*)");
    }
    expect((await assess("timeout 60 git log")).allowedByRules).toBe(true);
  });

  it("known escapes and anything not fully understood are unsure", async () => {
    for (const command of [
      "git -c core.pager='sh -c x' log",
      "sed -n '1e id' file",
      "sed 's/x/y/e' file",
      "awk 'BEGIN { system(\"id\") }'",
      "python3 -c 'import os'",
      "node -e 'process.exit()'",
      "echo cm0= | base64 -d | sh",
      'eval "$X"',
      "$CMD -rf x",
      "r${IFS}m x",
      "e{c,h}o x",
      "echo $((1 + $(id -u)))",
      "ls\rrm x",
      "ls\u2028rm x",
      "ls\u0000rm",
      "echo 'unterminated",
      "PAGER='sh -c x' git log",
      "bash",
    ]) {
      expect((await assess(command)).unsure.length, JSON.stringify(command)).toBeGreaterThan(0);
      expect(await decide(command), JSON.stringify(command)).toMatch(/ask-explicit|refuse/);
    }
    for (const command of ["node --test", "python3 -m pytest -q", "node scripts/build.js", "bash ./run.sh"]) {
      expect((await assess(command)).unsure, command).toEqual([]);
    }
  });

  it("redirections and write commands outside the workspace, protected paths and ignored files", async () => {
    expect((await assess("echo x >> ~/.bashrc")).outsideWrites).toEqual([join(homedir(), ".bashrc")]);
    expect((await assess("echo key > $HOME/.ssh/authorized_keys")).outsideWrites).toEqual([join(homedir(), ".ssh/authorized_keys")]);
    expect((await assess("cp a.txt /etc/x")).outsideWrites).toContain("/etc/x");
    expect((await assess("dd if=/dev/zero of=/tmp/outside-x bs=1 count=1")).outsideWrites).toContain("/tmp/outside-x");
    expect((await assess("sed -i s/a/b/ /etc/hosts")).outsideWrites).toContain("/etc/hosts");
    expect((await assess('echo x > "$DIR/f"')).outsideWrites[0]).toMatch(/only known when it runs/);
    expect((await assess("echo '{}' > .cairn/config.json")).protectedWrites[0]).toMatch(/^\.cairn\/config\.json/);
    expect((await assess("cat secret.env")).ignoredFiles).toEqual(["secret.env"]);
    expect((await assess("cat *.env")).ignoredFiles).toContain("secret.env");
    expect((await assess("cat ~/.ssh/id_rsa")).ignoredFiles).toEqual([join(homedir(), ".ssh/id_rsa")]);
    expect((await assess("echo x > out.txt 2>&1")).outsideWrites).toEqual([]);
    expect(await decide("echo x >> ~/.bashrc")).toBe("refuse");
    expect(await decide("echo x >> ~/.bashrc", { allowOutsideWrites: true })).toBe("allow");
    expect(await decide("echo x >> ~/.bashrc", { yes: false })).toBe("ask");
    expect(await decide("echo '{}' > .cairn/config.json")).toBe("ask-explicit");
    // A Bash rule allowing echo does not allow its redirection outside; an Edit rule naming the target does.
    expect(await decide("echo x >> ~/.bashrc", { rules: rules({ allow: ["Bash(echo:*)", "Edit(~/.bashrc)"] }) })).toBe("allow");
    expect(await decide("echo x > notes.txt", { rules: rules({ deny: ["Edit(notes.txt)"] }) })).toBe("refuse");
  });

  it("60 chained no-ops before the real command do not hide it", async () => {
    const command = `${Array.from({ length: 60 }, () => "true").join(" && ")} && rm -rf important`;
    expect((await assess(command)).denied?.invocation).toBe("rm -rf important");
  });

  it("deny wins over ask over allow, whatever the order", async () => {
    const mixed = rules({ allow: ["Bash(git:*)", "Bash(git push:*)"], ask: ["Bash(git push:*)"], deny: ["Bash(git push --force:*)"] });
    expect((await assess("git push --force origin", mixed)).denied?.rule.text).toBe("Bash(git push --force:*)");
    expect((await assess("git push origin", mixed)).asked?.rule.text).toBe("Bash(git push:*)");
    expect((await assess("git status", mixed)).allowedByRules).toBe(true);
    expect(await decide("git push origin", { rules: mixed })).toBe("ask-explicit");
  });

  it("an exact-text rule allows what the parse cannot fully understand; the sandbox runs what is not denied", async () => {
    const exact = rules({ allow: ["Bash(python3 -c 'print(1)')"] });
    expect(await decide("python3 -c 'print(1)'", { rules: exact })).toBe("allow");
    expect(await decide("python3 -c 'print(2)'", { rules: exact })).toBe("ask-explicit");
    // In the sandbox what cannot be read runs, unless a deny rule is in force (it could run the denied program), or a rule names the program.
    expect(await decide("python3 -c 'import os'", { sandbox: "workspace-write", rules: rules({}) })).toBe("allow");
    expect(await decide("python3 -c 'import os'", { sandbox: "workspace-write" })).toBe("ask-explicit");
    expect(await decide("python3 -c 'import os'", { sandbox: "workspace-write", rules: rules({ deny: ["Bash(rm:*)"], allow: ["Bash(python3:*)"] }) })).toBe("allow");
    expect(await decide("python3 -c 'import os'", { rules: rules({ deny: ["Bash(rm:*)"], allow: ["Bash(python3:*)"] }) })).toBe("allow");
    expect(await decide("echo x > ~/.bashrc", { sandbox: "workspace-write" })).toBe("allow");
    expect(await decide("rm -rf x", { sandbox: "workspace-write" })).toBe("refuse");
  });

  it("'always allow' is offered generalised the safe way: the first words, never arguments after a substitution", async () => {
    expect((await assess("npm run build -- --watch")).suggestion).toBe("Bash(npm run:*)");
    expect((await assess("make $(cat target)")).suggestion).toBe("Bash(make:*)");
    expect((await assess("timeout 60 pytest -x tests/")).suggestion).toBe("Bash(pytest:*)");
  });
});
