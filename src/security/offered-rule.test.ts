/**
 * "Always allow" offers only a rule that would let the command run without
 * asking: with the offered rule added, the same command line is allowed, out of
 * the sandbox and in it with a deny rule in force (where a parse that cannot
 * vouch for the command asks).
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PathOracle } from "./command-assessment.js";
import { parseRule, PermissionRules, rulesFromBlock } from "./permission-rules.js";
import { decideCommand, type SandboxMode, type SecurityContext } from "./security-decision.js";

let workspace: string;
let paths: PathOracle;

beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "cairn-offered-")));
  paths = {
    cwd: workspace,
    facts(path) {
      const absolute = path.startsWith("/") ? path : join(workspace, path);
      const inside = absolute === workspace || absolute.startsWith(`${workspace}/`);
      return { inside, ignored: false, protectedReason: undefined, credential: false, display: inside ? relative(workspace, absolute) : absolute };
    },
  };
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const commands = [
  'python3 -c "print(1)"',
  "python3 script.py",
  'node -e "1"',
  "npm test",
  'cd sub && python3 -c "print(1)"',
  'ls && python3 -c "x"',
  "cat notes.txt | python3",
  "npx vitest run",
  'timeout 5 python3 -c "1"',
  'eval "ls"',
  "git -c core.pager=less log",
  "make test",
];

describe('the rule "always allow" offers really allows the command', () => {
  for (const sandbox of ["off", "workspace-write"] satisfies SandboxMode[]) {
    it(`sandbox ${sandbox}, a deny rule in force: every command that asks offers a rule under which it runs`, async () => {
      const deny = rulesFromBlock({ deny: ["Bash(curl:*)"] }, "test");
      const context = (rules: PermissionRules): SecurityContext => ({ rules, sandbox, yes: false, allowOutsideWrites: false, allowOutsideReads: false, paths });
      const asked: string[] = [];
      for (const command of commands) {
        const { verdict, offered } = await decideCommand(command, context(new PermissionRules(deny, workspace)));
        if (verdict.kind === "allow") continue;
        asked.push(command);
        expect(offered, command).toBeDefined();
        const withOffered = new PermissionRules([...deny, ...offered!.map((rule) => parseRule(rule, "allow", "test"))], workspace);
        expect((await decideCommand(command, context(withOffered))).verdict.kind, `${command} under ${offered!.join(" and ")}`).toBe("allow");
      }
      // The table is worth something: most of it asks.
      expect(asked.length).toBeGreaterThanOrEqual(sandbox === "off" ? commands.length : 6);
    });
  }

  it("the program's rule where it covers the line, one rule per program for a compound line, the exact line where no program's rule does", async () => {
    const context: SecurityContext = { rules: new PermissionRules([], workspace), sandbox: "off", yes: false, allowOutsideWrites: false, allowOutsideReads: false, paths };
    expect((await decideCommand('python3 -c "print(1)"', context)).assessment.suggestion).toBe("Bash(python3:*)");
    expect((await decideCommand('cd sub && python3 -c "print(1)"', context)).offered).toEqual(["Bash(cd sub:*)", "Bash(python3:*)"]);
    // A program's rule cannot cover what is computed at run time: only the exact line can.
    expect((await decideCommand("cd sub && $(cat tool) --run", context)).offered).toEqual(["Bash(cd sub && $(cat tool) --run)"]);
    // A compound line: one rule for each of its programs, so that its parts run the next time in any order.
    expect((await decideCommand("npm test && npm run lint", context)).offered).toEqual(["Bash(npm test:*)", "Bash(npm run:*)"]);
    expect((await decideCommand("npm run lint; npm test", context)).offered).toEqual(["Bash(npm run:*)", "Bash(npm test:*)"]);
    // Two lines: the exact rule cannot name them, the programs' rules can.
    expect((await decideCommand('ls\npython3 -c "x"', context)).offered).toEqual(["Bash(ls:*)", "Bash(python3:*)"]);
    // Two lines with a program computed at run time: no rule covers it, and nothing is offered.
    expect((await decideCommand("ls\n$(cat tool) --run", context)).offered).toBeUndefined();
  });
});
