/**
 * A mistyped command never becomes a paid task: `cairn histroy` says which
 * command was meant and starts nothing (bin/cairn: run `npm run build` first).
 */
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";
import { commandsNear } from "./command-typos.js";

const cli = useCliFixture();

const complete = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

describe("a single word close to a command name", () => {
  it("cairn histroy asks whether `cairn history` was meant, exits 2 and sends nothing to the model", async () => {
    const server = await cli.startServer({ turns: [complete] });
    const result = await cli.run([...anthropicArgs(server), "--yes", "histroy"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("did you mean `cairn history`?");
    expect(server.requests).toHaveLength(0);
  });

  it("a prefix of a command counts: cairn checkp means `cairn checkpoints`", async () => {
    const server = await cli.startServer({ turns: [complete] });
    const result = await cli.run([...anthropicArgs(server), "--yes", "checkp"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("did you mean `cairn checkpoints`?");
    expect(server.requests).toHaveLength(0);
  });

  it("a single word that is not close to a command is a task; so is any task of several words", async () => {
    const server = await cli.startServer({ turns: [complete, complete] });
    const single = await cli.run([...anthropicArgs(server), "--yes", "refactor"]);
    expect(single.status).toBe(0);
    const several = await cli.run([...anthropicArgs(server), "--yes", "fix", "histroy", "page"]);
    expect(several.status).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("finds names by prefix or within an edit (two for long words), and nothing for other short words", () => {
    const names = ["history", "resume", "restore", "replay", "run", "show", "hooks", "trust", "sandbox"];
    expect(commandsNear("histroy", names)).toEqual(["history"]);
    expect(commandsNear("HISTORY", names)).toEqual(["history"]);
    expect(commandsNear("res", names)).toEqual(["resume", "restore"]);
    expect(commandsNear("sandobx", names)).toEqual(["sandbox"]);
    expect(commandsNear("hook", names)).toEqual(["hooks"]);
    expect(commandsNear("look", names)).toEqual([]);
    expect(commandsNear("test", names)).toEqual([]);
    expect(commandsNear("fix", names)).toEqual([]);
    expect(commandsNear("refactor", names)).toEqual([]);
    expect(commandsNear("fix it", names)).toEqual([]);
  });
});

describe("cairn help <command>", () => {
  it("an unknown command is said to be unknown, with the list of commands, exit 2", async () => {
    const result = await cli.run(["help", "nosuch"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("cairn: unknown command `nosuch`");
    for (const name of ["run", "resume", "history", "show", "restore", "demo"]) expect(result.stderr).toMatch(new RegExp(`^\\s+${name}\\b`, "m"));
  });

  it("a typo in it is pointed at the command meant", async () => {
    const result = await cli.run(["help", "histroy"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("did you mean `cairn history`?");
  });

  it("a known command still gets its help", async () => {
    const result = await cli.run(["help", "history"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: cairn history");
  });
});
