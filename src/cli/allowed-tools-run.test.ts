/**
 * Allow rules the user wrote, through the real CLI (bin/cairn → dist/: `npm
 * run build` first) against the scripted LLM server: a rule naming a program
 * lifts the ask for what it names (the sandbox off, and in the sandbox with a
 * deny rule in force), and the rule an ask offers for "always" really lets the
 * command run the next time.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonMessage } from "../ui/headless/json-events-reader.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const command = (text: string): { text: string } => ({
  text: `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`,
});
const done = { text: "<attempt_completion>\n<result>finished</result>\n</attempt_completion>" };

/** The final card of each command call, in order. */
function commandCards(messages: JsonMessage[]): Array<Record<string, unknown>> {
  return messages.filter((message) => message.say === "command" && !message.partial).map((message) => message.meta ?? {});
}

const output = (messages: JsonMessage[]): string =>
  messages
    .filter((message) => message.say === "command_output" && !message.partial)
    .map((message) => message.text)
    .join("");

/** `python3 -c` under --yes: runs with --allowed-tools "Bash(python3:*)"; without it, is asked explicitly, which --yes does not answer. */
async function expectTheRuleLiftsTheAsk(): Promise<void> {
  const turns = [command('python3 -c "print(40 + 2)"'), done];
  const server = await cli.startServer({ turns: [...turns, ...turns] });
  const allowed = await cli.run(["run", "--json", "--yes", "--allowed-tools", "Bash(python3:*)", ...anthropicArgs(server), "compute"]);
  expect(allowed.status, allowed.stderr).toBe(0);
  expect(commandCards(allowed.messages)).toEqual([expect.objectContaining({ approval: "auto", end: { kind: "exited", exitCode: 0, signal: null } })]);
  expect(output(allowed.messages)).toContain("42");
  expect(allowed.events.at(-1)).toMatchObject({ type: "result", status: "completed", refused: 0 });

  const without = await cli.run(["run", "--json", "--yes", ...anthropicArgs(server), "compute"]);
  expect(without.status, without.stderr).toBe(0);
  expect(commandCards(without.messages)).toEqual([expect.objectContaining({ explicitApproval: true, status: "rejected" })]);
  expect(without.events.at(-1)).toMatchObject({ type: "result", refused: 1 });
}

describe("a rule the user wrote lifts the ask for what it names", () => {
  it('--yes --allowed-tools "Bash(python3:*)": python3 -c runs; without the rule it is asked explicitly, which --yes does not answer', { timeout: 60_000 }, async () => {
    await expectTheRuleLiftsTheAsk();
  });

  it("in the sandbox, with a deny rule in force, a rule naming the program still lifts the ask (the command runs in the sandbox)", { timeout: 60_000 }, async () => {
    // The user's own config: the sandbox on (the default), a deny rule that the parse of inline code could not vouch for.
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10] }, permissions: { deny: ["Bash(curl:*)"] } }));
    await expectTheRuleLiftsTheAsk();
  });
});

describe('the rule an ask offers for "always"', () => {
  it("really allows the command: answered always once, the same command runs the next time without an ask", { timeout: 60_000 }, async () => {
    const line = 'python3 -c "print(40 + 2)"';
    const server = await cli.startServer({ turns: [command(line), command(line), done] });
    // Text mode: the first ask is answered "always" on stdin; stdin then ends, and any later ask would be denied.
    const run = await cli.run(["run", "--on-ask", "deny", ...anthropicArgs(server), "compute twice"], { stdin: "always\n" });
    expect(run.status, run.stderr).toBe(0);
    const offered = /answer "always" to allow (.+) from now on/.exec(run.stderr)?.[1];
    expect(offered).toBe("Bash(python3:*)");
    const config = JSON.parse(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")) as { permissions?: { allow?: string[] } };
    expect(config.permissions?.allow).toEqual([offered]);
    // Both ran: nothing was refused, and the second needed no answer.
    expect(run.stderr.match(/^ {2}exited with code 0 after/gm)).toHaveLength(2);
    expect(run.stderr.trimEnd().split("\n").at(-1)).not.toMatch(/refused/);
    expect(run.stdout).toBe("finished\n");
  });

  it("on a compound command saves a rule for each of its programs, and the next run's line of the same programs (in another order) runs without an ask", { timeout: 60_000 }, async () => {
    await mkdir(join(cli.sandbox.workspace, "sub"));
    const first = await cli.startServer({ turns: [command('cd sub && python3 -c "print(40 + 2)"'), done] });
    const run = await cli.run(["run", "--on-ask", "deny", ...anthropicArgs(first), "compute"], { stdin: "always\n" });
    expect(run.status, run.stderr).toBe(0);
    const config = JSON.parse(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")) as { permissions?: { allow?: string[] } };
    expect(config.permissions?.allow).toEqual(["Bash(cd sub:*)", "Bash(python3:*)"]);

    // Another run, nobody to answer: an ask would be denied.
    const second = await cli.startServer({ turns: [command('python3 -c "print(7)" && cd sub && python3 -c "print(8)"'), done] });
    const again = await cli.run(["run", "--on-ask", "deny", ...anthropicArgs(second), "compute again"], { stdin: "" });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/answer "always"/);
    expect(again.stderr.match(/^ {2}exited with code 0 after/gm)).toHaveLength(1);
  });
});
