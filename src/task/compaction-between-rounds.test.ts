import { describe, expect, it } from "vitest";
import { ContextManager } from "../context/context-manager.js";
import { loadTokenizer, TokenEstimator } from "../context/token-estimate.js";
import { modelInfo } from "../llm/models.js";
import type { Provider } from "../llm/types.js";
import { TaskStore } from "../store/task-store.js";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import type { PromptBuilder } from "./contracts/prompt-builder.js";
import { deferred, text } from "./test-support/gated-provider.js";
import { complete, makeTask, testPrompt } from "./test-support/make-task.js";
import { conversation } from "../context/test-support/long-conversation.js";

await loadTokenizer();

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("/compact between two rounds", () => {
  it("the compacted history keeps what the task added while the summary was written, and the log replays to the history the model saw", async () => {
    const folder = await temporaryFolder("cairn-compaction-race-");
    const dataDir = folder.path;
    const store = new TaskStore({ dataDir });
    const writer = await store.create({ taskId: "race-1", task: "read the listings", workspace: dataDir });
    const summaryGate = deferred();
    const betweenRounds = deferred();
    let environmentCalls = 0;
    let waitingBetweenRounds = false;
    const prompt: PromptBuilder = {
      systemPrompt: testPrompt.systemPrompt,
      environmentDetails: async (options) => {
        environmentCalls += 1;
        if (environmentCalls === 2) {
          // The second round is about to be built: no request is in flight now.
          waitingBetweenRounds = true;
          await betweenRounds.promise;
        }
        return testPrompt.environmentDetails(options);
      },
    };
    const history = conversation(6);
    // The summary request goes through the task's own provider (set once the fixture made it).
    const summaryProvider: { current?: Provider } = {};
    const manager = new ContextManager({
      provider: {
        name: "gated",
        model: modelInfo("claude-sonnet-5-5"),
        createMessage: (request) => summaryProvider.current!.createMessage(request),
      },
      readFile: async () => undefined,
    });
    const { task, provider } = makeTask(
      [[text("<read_file>\n<path>a.txt</path>\n</read_file>")], [{ type: "gate", wait: () => summaryGate.promise }, text("## Task\nRead the listings.\n## Next step\nNothing (summary).")], [text(complete("all read"))]],
      {
        yes: true,
        extra: {
          prompt,
          log: writer,
          history: { apiHistory: history, uiMessages: [] },
          context: manager,
        },
      },
    );
    summaryProvider.current = provider;
    const result = task.resumeTask([{ type: "text", text: "go on" }]);
    await until(() => waitingBetweenRounds, "the task to be between two rounds");
    const compaction = manager.compactWhenPossible(); // what /compact calls while a task runs
    await until(() => provider.requests.length === 2, "the summary request");
    betweenRounds.resolve();
    expect((await result).status).toBe("completed");
    summaryGate.resolve();
    expect((await compaction).done).toBe(true);

    const final = task.apiConversationHistory;
    expect(JSON.stringify(final.at(-1))).toContain("all read"); // the completion is still there
    expect(JSON.stringify(final)).toContain("contents of a.txt"); // and the next round's tool result
    expect(JSON.stringify(final)).toContain("(summary)");
    await writer.close();
    const replayed = await store.load("race-1");
    expect(replayed.apiHistory).toEqual(final);
    await folder.remove();
  });
});

describe("the context check before the first request of a run", () => {
  it("counts the system prompt: a resumed conversation that fits only without it is condensed before it is sent", async () => {
    // As in the session: the context manager counts the system prompt last built for a request.
    let lastSystemPrompt = "";
    const rules = "Rules of this project, to follow in every answer. ".repeat(200);
    const prompt: PromptBuilder = {
      systemPrompt: async (options) => (lastSystemPrompt = `${await testPrompt.systemPrompt(options)}\n${rules}`),
      environmentDetails: testPrompt.environmentDetails,
    };
    const summaryProvider: { current?: Provider } = {};
    const model = { ...modelInfo("claude-sonnet-5-5"), contextWindow: 8_000, maxOutputTokens: 1_000 };
    const manager = new ContextManager({
      provider: { name: "gated", model, createMessage: (request) => summaryProvider.current!.createMessage(request) },
      readFile: async () => undefined,
      requestOverhead: () => lastSystemPrompt,
    });
    const history = conversation(22);
    const estimator = new TokenEstimator();
    // Under the budget without the system prompt, over it with the prompt.
    expect(estimator.messages(history)).toBeLessThan(manager.budget);
    expect(estimator.messages(history) + estimator.text(rules)).toBeGreaterThan(manager.budget);
    const { task, provider } = makeTask([[text("## Task\nRead the listings.\n## Next step\nGo on (summary).")], [text(complete("all read"))]], {
      yes: true,
      extra: { prompt, history: { apiHistory: history, uiMessages: [] }, context: manager },
    });
    summaryProvider.current = provider;
    expect((await task.resumeTask([{ type: "text", text: "go on" }])).status).toBe("completed");
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[0]?.systemPrompt).toContain("You condense the conversation");
    expect(JSON.stringify(provider.requests[1]?.messages)).toContain("Go on (summary).");
  });
});
