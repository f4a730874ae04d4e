import { afterEach, describe, expect, it } from "vitest";
import { SlashCommandRegistry, parseSlashInput, registerSlashCommand, slashCommands } from "./slash-commands.js";
import type { SlashSession } from "./slash-commands.js";
import { registerBuiltinSlashCommands } from "./builtin-slash-commands.js";
import { FakeController } from "./test-support/fake-terminal.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

function fakeSession(overrides: Partial<SlashSession> = {}): SlashSession & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    currentTask: () => undefined,
    currentTaskId: () => "task-1",
    newTask: () => calls.push("newTask"),
    setModel: async (spec) => {
      calls.push(`model ${spec}`);
      return spec;
    },
    describeModel: () => "claude-sonnet-4-5 via anthropic",
    setMode: (mode) => calls.push(`mode ${mode}`),
    costReport: () => "This task: 10 tokens in",
    undo: async () => "undone",
    restore: async (checkpoint, mode) => `restored ${checkpoint} ${mode}`,
    history: async () => "no tasks",
    resume: async (id) => `resumed ${id ?? "latest"}`,
    mcpReport: async () => "no servers",
    contextCommand: (command) => calls.push(command),
    exit: () => calls.push("exit"),
    ...overrides,
  };
}

describe("slash commands are parsed and run locally, never sent to the model", () => {
  it("/compact and /uncompact are local commands that reach the session's context manager", async () => {
    const session = fakeSession();
    const registry = new SlashCommandRegistry();
    registerBuiltinSlashCommands(registry);
    const print = (): void => {};
    await registry.get("compact")?.run({ args: "", print, send: () => {}, session });
    await registry.get("uncompact")?.run({ args: "", print, send: () => {}, session });
    expect(session.calls).toEqual(["compact", "uncompact"]);
  });

  it("/model without arguments lists the models the provider serves", async () => {
    const registry = new SlashCommandRegistry();
    registerBuiltinSlashCommands(registry);
    const printed: string[] = [];
    const session = fakeSession({ describeModel: () => "gemini-2.5-pro via gemini", modelChoices: () => ["gemini-2.5-pro", "gemini-2.5-flash"] });
    await registry.get("model")?.run({ args: "", print: (text) => printed.push(text), send: () => {}, session });
    expect(printed.join("\n")).toContain("Model: gemini-2.5-pro via gemini");
    expect(printed.join("\n")).toContain("Known models for this provider: gemini-2.5-pro, gemini-2.5-flash.");
  });

  it("a command is / and a name at the very start of the input; /etc/hosts is text", () => {
    expect(parseSlashInput("/help")).toEqual({ kind: "command", name: "help", args: "" });
    expect(parseSlashInput("/mode plan")).toEqual({ kind: "command", name: "mode", args: "plan" });
    expect(parseSlashInput("/etc/hosts is wrong")).toEqual({ kind: "text" });
    expect(parseSlashInput("fix /help")).toEqual({ kind: "text" });
    expect(parseSlashInput(" /help")).toEqual({ kind: "text" });
    expect(parseSlashInput("/ help")).toEqual({ kind: "text" });
  });

  it("an unknown command is an error with a hint, never sent to the model", async () => {
    const registry = new SlashCommandRegistry();
    registerBuiltinSlashCommands(registry);
    const printed: string[] = [];
    const sent: string[] = [];
    const handled = await registry.execute("/hlep", { print: (text) => printed.push(text), send: (text) => sent.push(text), session: fakeSession() });
    expect(handled).toBe(true);
    expect(sent).toEqual([]);
    expect(printed[0]).toMatch(/Unknown command \/hlep\. Did you mean \/help\?/);
  });

  it("registering a command from another feature is one call, and it shows in /help and the menu", async () => {
    const registry = new SlashCommandRegistry();
    registerBuiltinSlashCommands(registry);
    registry.register({ name: "compact", description: "Summarise the conversation", run: ({ print }) => print("compacted") });
    expect(registry.complete("co").map((command) => command.name)).toEqual(["compact", "cost"]);
    const printed: string[] = [];
    await registry.execute("/help", { print: (text) => printed.push(text), send: () => {}, session: fakeSession() });
    expect(printed[0]).toContain("/compact  Summarise the conversation");
    for (const name of ["help", "clear", "model", "mode", "cost", "undo", "restore", "history", "resume", "mcp", "init", "exit"]) {
      expect(printed[0]).toContain(`/${name}`);
    }
  });

  it("/init sends a request to write AGENTS.md; /mode switches; /clear starts a new task", async () => {
    const registry = new SlashCommandRegistry();
    registerBuiltinSlashCommands(registry);
    const session = fakeSession();
    const sent: string[] = [];
    const context = { print: () => {}, send: (text: string) => sent.push(text), session };
    await registry.execute("/init", context);
    expect(sent[0]).toContain("AGENTS.md");
    await registry.execute("/mode plan", context);
    await registry.execute("/clear", context);
    await registry.execute("/model fast", context);
    expect(session.calls).toEqual(["mode plan", "newTask", "model fast"]);
  });
});

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

class SlashController extends FakeController {
  readonly session = fakeSession();
  slashSession(): SlashSession {
    return this.session;
  }
}

describe("slash commands in the UI (ink-testing-library)", () => {
  it("shows a completion menu; Tab completes; Enter runs locally and prints the result", async () => {
    const controller = new SlashController();
    controller.current = { ...controller.current, busy: false };
    const ui = (mounted = mountApp({ controller }));
    await ui.press("/cos");
    expect(ui.frame()).toContain("/cost");
    expect(ui.frame()).toContain("Tokens and cost");
    await ui.press("\t");
    expect(ui.frame()).toContain("› /cost");
    await ui.press("\r");
    await ui.tick();
    expect(ui.frame()).toContain("This task: 10 tokens in");
    expect(controller.submitted).toEqual([]);
    await ui.press("/etc/hosts is wrong");
    await ui.press("\r");
    expect(controller.submitted).toEqual(["/etc/hosts is wrong"]);
  });

  it("a command registered with registerSlashCommand is offered and run", async () => {
    registerSlashCommand({ name: "zz-test-command", description: "a feature's command", run: ({ print }) => print("feature ran") });
    const controller = new SlashController();
    const ui = (mounted = mountApp({ controller }));
    await ui.press("/zz");
    expect(ui.frame()).toContain("a feature's command");
    await ui.press("\r");
    await ui.tick();
    expect(ui.frame()).toContain("feature ran");
    expect(slashCommands.get("zz-test-command")).toBeDefined();
  });
});
