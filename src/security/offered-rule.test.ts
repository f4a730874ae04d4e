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
        const { verdict, assessment } = await decideCommand(command, context(new PermissionRules(deny, workspace)));
        if (verdict.kind === "allow") continue;
        asked.push(command);
        const offered = assessment.suggestion;
        expect(offered, command).toBeDefined();
        const withOffered = new PermissionRules([...deny, parseRule(offered!, "allow", "test")], workspace);
        expect((await decideCommand(command, context(withOffered))).verdict.kind, `${command} under ${offered}`).toBe("allow");
      }
      // The table is worth something: most of it asks.
      expect(asked.length).toBeGreaterThanOrEqual(sandbox === "off" ? commands.length : 6);
    });
  }

  it("the program's rule where it covers the line, the exact line where no program's rule does", async () => {
    const context: SecurityContext = { rules: new PermissionRules([], workspace), sandbox: "off", yes: false, allowOutsideWrites: false, allowOutsideReads: false, paths };
    expect((await decideCommand('python3 -c "print(1)"', context)).assessment.suggestion).toBe("Bash(python3:*)");
    expect((await decideCommand('cd sub && python3 -c "print(1)"', context)).assessment.suggestion).toBe('Bash(cd sub && python3 -c "print(1)")');
    // A line the exact rule cannot name (more than one line) and no program's rule covers: nothing is offered.
    expect((await decideCommand('ls\npython3 -c "x"', context)).assessment.suggestion).toBeUndefined();
  });
});
