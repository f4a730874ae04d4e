import { describe, expect, it } from "vitest";
import type { Chunk, Message, Provider } from "../llm/types.js";
import { ContextManager } from "./context-manager.js";
import type { CompactionLogEntry } from "./contract.js";
import { defaultContextSettings } from "./context-settings.js";
import { replayCompaction } from "./compaction-log.js";
import type { UncompactState } from "./compaction-log.js";
import { loadTokenizer } from "./token-estimate.js";
import { conversation } from "./test-support/long-conversation.js";

await loadTokenizer();

function provider(contextWindow: number, summaries: string[] = []): Provider & { requests: number } {
  const fake = {
    name: "fake",
    requests: 0,
    model: { id: "fake", contextWindow, maxOutputTokens: 1_000, inputPrice: 0, outputPrice: 0, supportsImages: false, supportsReasoning: false },
    createMessage(): AsyncIterable<Chunk> {
      fake.requests += 1;
      const text = summaries.shift() ?? "## Task\nsummary";
      return (async function* () {
        yield { type: "text", text };
      })();
    },
  };
  return fake;
}

function attach(manager: ContextManager, history: Message[], requestInFlight?: () => boolean): { entries: CompactionLogEntry[]; said: Array<{ type: string; text: string }> } {
  const entries: CompactionLogEntry[] = [];
  const said: Array<{ type: string; text: string }> = [];
  manager.attach({
    messages: () => history,
    replace: async (update) => {
      const replacement = update(history.slice());
      if (replacement === undefined) return false;
      history.splice(0, history.length, ...replacement.messages);
      entries.push(replacement.entry);
      return true;
    },
    say: (type, text) => said.push({ type, text }),
    lastContextTokens: () => 0,
    ...(requestInFlight === undefined ? {} : { requestInFlight }),
    signal: new AbortController().signal,
  });
  return { entries, said };
}

describe("ContextManager compacts the conversation when it passes the budget", () => {
  it("compacts before a request once the conversation passes the budget, and not before", async () => {
    const history = conversation(3, "the task");
    const fake = provider(4_000);
    const manager = new ContextManager({ provider: fake, readFile: async () => undefined });
    const { entries, said } = attach(manager, history);
    await manager.beforeRequest();
    expect(entries).toHaveLength(0);
    history.push(...conversation(20, "the task").slice(7));
    expect(manager.tokensUsed()).toBeGreaterThan(manager.budget);
    await manager.beforeRequest();
    expect(entries.map((entry) => entry.kind)).toEqual(["api_compact"]);
    expect(said.map((message) => message.type)).toContain("condense");
    expect(manager.tokensUsed()).toBeLessThan(manager.budget);
  });

  it("PreCompact: the hook seam runs before each compaction, auto before a request and manual on /compact", async () => {
    const history = conversation(20, "the task");
    const triggers: string[] = [];
    const manager = new ContextManager({
      provider: provider(4_000),
      readFile: async () => undefined,
      beforeCompaction: async (trigger) => void triggers.push(`${trigger}:${history.length}`),
    });
    attach(manager, history);
    const before = history.length;
    await manager.beforeRequest();
    expect(triggers).toEqual([`auto:${before}`]);
    await manager.compact();
    expect(triggers[1]?.startsWith("manual:")).toBe(true);
  });

  it("the system prompt counts: a conversation under the budget is compacted when the prompt fills the rest", async () => {
    const history = conversation(8, "the task");
    const bare = new ContextManager({ provider: provider(4_000), readFile: async () => undefined });
    attach(bare, history.slice());
    expect(bare.tokensUsed()).toBeLessThan(bare.budget);
    const prompt = "Rules of this project. ".repeat(400);
    const manager = new ContextManager({ provider: provider(4_000), readFile: async () => undefined, requestOverhead: () => prompt });
    const { entries } = attach(manager, history);
    expect(manager.tokensUsed()).toBeGreaterThan(bare.tokensUsed() + 1_000);
    await manager.beforeRequest();
    expect(entries.map((entry) => entry.kind)).toEqual(["api_compact"]);
  });

  it("off: never compacts before a request (config context.enabled false)", async () => {
    const history = conversation(40, "the task");
    const manager = new ContextManager({ provider: provider(4_000), settings: { ...defaultContextSettings, enabled: false }, readFile: async () => undefined });
    const { entries } = attach(manager, history);
    await manager.beforeRequest();
    expect(entries).toHaveLength(0);
  });

  it("/compact asked while a task runs compacts before its next request; /uncompact restores the conversation plus what came after", async () => {
    const history = conversation(6, "the task");
    const original = history.slice();
    const manager = new ContextManager({ provider: provider(200_000), readFile: async () => undefined });
    const { entries, said } = attach(manager, history);
    manager.requestCompaction();
    await manager.beforeRequest();
    expect(entries.map((entry) => entry.kind)).toEqual(["api_compact"]);
    expect(history.length).toBeLessThan(original.length);
    const added = conversation(1, "the task").slice(1);
    history.push(...added);
    const outcome = await manager.uncompact();
    expect(outcome.done).toBe(true);
    expect(history).toEqual([...original, ...added]);
    expect(said.at(-1)?.text).toContain("Restored the conversation");
    expect((await manager.uncompact()).done).toBe(false);
  });

  it("/compact during a request waits for the next request; between requests it compacts at once", async () => {
    const history = conversation(6, "the task");
    let inFlight = true;
    const manager = new ContextManager({ provider: provider(200_000), readFile: async () => undefined });
    const { entries } = attach(manager, history, () => inFlight);
    expect((await manager.compactWhenPossible()).done).toBe(false);
    expect(entries).toHaveLength(0);
    inFlight = false;
    await manager.beforeRequest();
    expect(entries).toHaveLength(1);
    history.push(...conversation(4, "the task").slice(1));
    expect((await manager.compactWhenPossible()).done).toBe(true);
    expect(entries).toHaveLength(2);
  });

  it("replaying the log's compaction entries gives the same conversations (resume, uncompact after resume)", async () => {
    const history = conversation(6, "the task");
    const original = history.slice();
    const manager = new ContextManager({ provider: provider(200_000), readFile: async () => undefined });
    const { entries } = attach(manager, history);
    await manager.compact();
    const compacted = history.slice();
    history.push(...conversation(1, "the task").slice(1));
    await manager.uncompact();
    const replayed = original.slice();
    const state: UncompactState | undefined = replayCompaction(replayed, undefined, entries[0]!);
    expect(replayed).toEqual(compacted);
    replayed.push(...conversation(1, "the task").slice(1));
    replayCompaction(replayed, state, entries[1]!);
    expect(replayed).toEqual(history);
  });

  it("a context-window error whose summary request fails falls back to dropping the oldest turns (first exchange kept)", async () => {
    const history = conversation(8, "the task");
    const failing: Provider = {
      ...provider(200_000),
      createMessage: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(Object.assign(new Error("network down"), { kind: "network" })) }),
      }),
    };
    const manager = new ContextManager({ provider: failing, readFile: async () => undefined });
    const { said, entries } = attach(manager, history);
    expect(await manager.afterContextWindowError()).toBe(true);
    expect(said.map((message) => message.text)).toEqual(["Could not condense the conversation: network down", "The request did not fit the context window; 6 older messages were dropped."]);
    expect(entries).toHaveLength(1);
    expect(history).toHaveLength(17 - 6);
    expect(history[0]?.content[0]).toEqual({ type: "text", text: "<task>\nthe task\n</task>" });
  });

  it("an abort while the summary is written ends the compaction with the abort, not with a warning and the task going on", async () => {
    const history = conversation(6, "the task");
    const controller = new AbortController();
    const said: string[] = [];
    const stalled: Provider = {
      name: "stalled",
      model: provider(200_000).model,
      createMessage: ({ signal }) => ({
        [Symbol.asyncIterator]: () => ({
          next: async (): Promise<IteratorResult<Chunk>> => {
            await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
            throw new Error("request aborted");
          },
        }),
      }),
    };
    const manager = new ContextManager({ provider: stalled, readFile: async () => undefined });
    manager.attach({
      messages: () => history,
      replace: async () => true,
      say: (type) => void said.push(type),
      lastContextTokens: () => 0,
      signal: controller.signal,
    });
    const compaction = manager.compact();
    setTimeout(() => controller.abort(), 20);
    await expect(compaction).rejects.toThrow("request aborted");
    expect(said).not.toContain("warning");
  });
});
