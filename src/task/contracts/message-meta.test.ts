import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../../tools/test-support/test-workspace.js";
import { createToolExecutor } from "../../tools/create-tool-executor.js";
import { makeTask } from "../test-support/make-task.js";
import { text } from "../test-support/gated-provider.js";
import type { AskMessage, AskResponse, UiMessage } from "./messages.js";
import { cardMetaOf, isToolMeta, metaOf, toolMetaOf, type SayMeta, type ToolCard, type ToolMetaOf } from "./message-meta.js";
import type { ToolCallContext } from "./tool-executor.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "notes.md": "# notes\n" });
});
afterEach(() => workspace.cleanup());

const completion = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

function answer(message: AskMessage): AskResponse {
  return message.ask === "followup" ? { response: "message", text: "vitest" } : { response: "yes" };
}

/** Runs a task whose model calls real tools, and returns what the host was sent and what the log holds. */
async function runTask(turns: string[]): Promise<{ shown: UiMessage[]; logged: UiMessage[] }> {
  const toolExecutor = createToolExecutor({ workspace: workspace.root, dataDir: workspace.dataDir, yes: false, allowOutsideWrites: false, protocol: "xml", shell: "/bin/sh" });
  const { task, host, log } = makeTask(
    [...turns, completion].map((turn) => [text(turn)]),
    { answer, extra: { toolExecutor } },
  );
  const result = await task.startTask("use the tools");
  expect(result.status).toBe("completed");
  const logged = log.entries.flatMap((entry) => (entry.kind === "ui" ? [entry.message] : []));
  return { shown: host.finalMessages(), logged };
}

describe("UI message meta: typed per kind by its writers, read by kind", () => {
  it("a reader gets what the tools and the Task wrote (a diff to approve, a command's end, a question's options, a failure, usage), live and from the log", async () => {
    const { shown, logged } = await runTask([
      "<write_to_file>\n<path>src/a.ts</path>\n<content>export const a = 1;\n</content>\n</write_to_file>",
      "<execute_command>\n<command>echo out; exit 3</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
      '<ask_followup_question>\n<question>Which runner?</question>\n<options>["vitest", "jest"]</options>\n</ask_followup_question>',
      "<read_file>\n<path>missing.txt</path>\n</read_file>",
    ]);
    expect(existsSync(workspace.path("src/a.ts"))).toBe(true);
    for (const messages of [shown, logged]) {
      // write_to_file: the approval ask carries the card the tool and the approval policy wrote.
      const edit = messages.map((message) => (message.type === "ask" ? toolMetaOf(message, "write_to_file") : undefined)).find((meta) => meta !== undefined);
      expect(edit?.path).toBe("src/a.ts");
      expect(edit?.diff).toContain("+export const a = 1;");
      expect(edit?.created).toBe(true);
      expect(edit?.approval).toBe("ask");
      // execute_command: the output says how the command ended.
      const ends = messages.map((message) => metaOf(message, "command_output")?.end).filter((end) => end !== undefined);
      expect(ends).toEqual([{ kind: "exited", exitCode: 3, signal: null }]);
      const command = messages.map((message) => (message.type === "ask" ? metaOf(message, "command") : undefined)).find((meta) => meta !== undefined);
      expect(command).toMatchObject({ tool: "execute_command", command: "echo out; exit 3", approval: "ask" });
      // ask_followup_question: the options, read by the ask's kind.
      expect(messages.map((message) => metaOf(message, "followup")?.options).find((options) => options !== undefined)).toEqual(["vitest", "jest"]);
      // read_file of a missing file: the Task amended the tool's own card with the failure.
      const read = messages
        .map((message) => toolMetaOf(message, "read_file"))
        .filter((meta) => meta !== undefined)
        .at(-1);
      expect(read).toMatchObject({ tool: "read_file", path: "missing.txt", approval: "auto", status: "error" });
      expect(read?.error).toContain("missing.txt");
      // api_req_started: the round's usage, as the Task wrote it.
      const usage = messages.map((message) => (message.partial ? undefined : metaOf(message, "api_req_started"))).filter((meta) => meta !== undefined);
      expect(usage.length).toBe(5);
      for (const meta of usage) expect(typeof meta.tokensIn === "number" && typeof meta.cost === "number").toBe(true);
    }
  });

  it("metaOf answers only for the kind named, cardMetaOf only for tool cards, isToolMeta only for the tools named", () => {
    const card: UiMessage = { id: "1", ts: 0, type: "say", say: "tool", text: "Read a", partial: false, meta: { tool: "read_file", path: "a" } };
    const unknownFailure: UiMessage = { id: "2", ts: 0, type: "say", say: "tool", text: "frobnicate", partial: false, meta: { tool: "frobnicate", status: "error", error: "no such tool" } };
    expect(metaOf(card, "command_output")).toBeUndefined();
    expect(metaOf(card, ["command", "tool"])?.tool).toBe("read_file");
    expect(toolMetaOf(card, "read_file")?.path).toBe("a");
    expect(toolMetaOf(card, "list_files", "search_files")).toBeUndefined();
    expect(cardMetaOf({ ...card, say: "info" })).toBeUndefined();
    const failure: ToolCard | undefined = cardMetaOf(unknownFailure);
    expect(failure).toMatchObject({ tool: "frobnicate", status: "error", error: "no such tool" });
    expect(isToolMeta(failure, "read_file")).toBe(false);
  });

  it("a writer that puts a wrong field does not compile (checked by tsc, `npm run typecheck`)", () => {
    // Never called: what matters is that tsc rejects each line marked below.
    const writers = (context: ToolCallContext): void => {
      // @ts-expect-error read_file's card has no `command`
      context.say("tool", "Read a", { meta: { tool: "read_file", path: "a", command: "ls" } });
      // @ts-expect-error a command's output must say how it ended
      context.say("command_output", "", { meta: { tool: "execute_command", durationMs: 1 } });
      // @ts-expect-error a follow-up's options are strings
      void context.ask("followup", "Which?", { meta: { tool: "ask_followup_question", options: [1, 2] } });
      // @ts-expect-error a plain answer carries no meta
      context.say("text", "hello", { meta: { tool: "read_file", path: "a" } });
      // @ts-expect-error an approval verdict is one of auto, ask, refuse
      const card: ToolMetaOf<"execute_command"> = { tool: "execute_command", command: "ls", approval: "maybe" };
      // @ts-expect-error usage counts are numbers
      const usage: SayMeta<"api_req_started"> = { tokensIn: "12", tokensOut: 1, cacheReads: 0, cacheWrites: 0, cost: 0 };
      void card;
      void usage;
    };
    expect(typeof writers).toBe("function");
  });
});
