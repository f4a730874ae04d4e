import { describe, expect, it } from "vitest";
import type { ContentBlock, Message } from "../llm/types.js";
import { compactConversation } from "./compact-conversation.js";
import type { CompactOptions } from "./compact-conversation.js";
import { defaultContextSettings } from "./context-settings.js";
import type { SummaryRequest } from "./summary-request.js";
import { TokenEstimator, loadTokenizer } from "./token-estimate.js";

await loadTokenizer();

let nextId = 0;
function call(name: string, input: Record<string, unknown>, result: string): Message[] {
  nextId += 1;
  const id = `call_${nextId}`;
  return [
    {
      role: "assistant",
      content: [
        { type: "text", text: `Using ${name}.` },
        { type: "tool_use", id, name, input },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: id, content: result },
        { type: "text", text: "<environment_details>…</environment_details>" },
      ],
    },
  ];
}

/** A native-protocol task: edits src/a.ts, reads files, sets a checklist, gets feedback from the user. */
function history(): Message[] {
  return [
    { role: "user", content: [{ type: "text", text: "<task>\nMake the parser faster\n</task>" }] },
    ...call("update_checklist", { checklist: "- [x] Read the parser\n- [ ] Cache the tokens\n- [ ] Run the benchmark" }, "The checklist was updated."),
    ...call("read_file", { path: "src/parser.ts" }, `parser v1 ${"p".repeat(3000)}`),
    ...call("write_to_file", { path: "src/a.ts", content: "export const a = 1;\n" }, "Wrote src/a.ts"),
    ...call("execute_command", { command: "npm test" }, "12 passed\nThe user said:\n<feedback>\nUse a Map, not an object\n</feedback>"),
    ...call("read_file", { path: "src/parser.ts" }, `parser v2 ${"q".repeat(3000)}`),
    ...call("list_files", { path: "src" }, "a.ts parser.ts"),
    ...call("search_files", { path: "src", regex: "token" }, "parser.ts: token"),
    ...call("list_files", { path: "test" }, "parser.test.ts"),
  ];
}

function options(overrides: Partial<CompactOptions> & { summaries?: string[]; sent?: SummaryRequest[] }): CompactOptions {
  const sent = overrides.sent ?? [];
  const summaries = overrides.summaries ?? [];
  return {
    messages: history(),
    reason: "manual",
    settings: defaultContextSettings,
    model: { contextWindow: 200_000, maxOutputTokens: 8_000 },
    budget: 150_000,
    estimator: new TokenEstimator(),
    summarize: async (request) => {
      sent.push(request);
      return summaries.shift() ?? "## Task\nMake the parser faster\n## Files\nsrc/a.ts changed.\n## Open checklist items\n- [ ] Cache the tokens\n- [ ] Run the benchmark";
    },
    readFile: async (path) => (path === "src/a.ts" ? "export const a = 2;\n" : path === "src/parser.ts" ? "parser now" : undefined),
    ...overrides,
  };
}

function text(blocks: ContentBlock[] | undefined): string {
  return JSON.stringify(blocks ?? []);
}

function assertPaired(messages: Message[]): void {
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index];
    expect(message?.role).toBe(index % 2 === 0 ? "user" : "assistant");
    if (message?.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      expect(messages[index + 1]?.content.some((next) => next.type === "tool_result" && next.toolUseId === block.id)).toBe(true);
    }
  }
}

describe("compactConversation rebuilds the conversation around a checked summary", () => {
  it("continues from the task, the summary, the user's messages verbatim, the checklist, the re-read files and the last turns with their results", async () => {
    const sent: SummaryRequest[] = [];
    const original = history();
    const result = await compactConversation(options({ messages: original, sent }));
    if (result.kind !== "summary") throw new Error(`expected a summary, got ${result.kind}`);
    const head = text(result.messages[0]?.content);
    expect(head).toContain("Make the parser faster");
    expect(head).toContain("<conversation_summary>");
    expect(head).toContain("src/a.ts changed.");
    expect(head).toContain("Use a Map, not an object");
    expect(head).toContain("<current_checklist>\\n- [x] Read the parser\\n- [ ] Cache the tokens");
    expect(head).toContain('<file_content path=\\"src/a.ts\\">');
    expect(head).toContain("export const a = 2;");
    expect(head).toContain("parser now");
    // The last three turns, verbatim (the same messages), every call with its result.
    expect(result.messages.slice(1)).toEqual(original.slice(-6));
    expect(result.missing).toEqual({ files: [], items: [] });
    assertPaired(result.messages);
    // The summary request carries no tool blocks, names the edited file and the open items.
    expect(sent).toHaveLength(1);
    const request = text(sent[0]?.messages[0]?.content);
    expect(request).not.toContain('"tool_use"');
    expect(request).toContain("- src/a.ts");
    expect(request).toContain("- [ ] Run the benchmark");
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  });

  it("catches a summary that omits an edited file or an open item, and keeps the turns that mention them verbatim", async () => {
    const original = history();
    const result = await compactConversation(options({ messages: original, summaries: ["## Task\nMake the parser faster\n## Next step\nbenchmark"] }));
    if (result.kind !== "summary") throw new Error("expected a summary");
    expect(result.missing).toEqual({ files: ["src/a.ts"], items: ["Cache the tokens", "Run the benchmark"] });
    const writeTurn = original.findIndex((message) => message.content.some((block) => block.type === "tool_use" && block.name === "write_to_file"));
    expect(result.messages).toContain(original[writeTurn]);
    expect(result.messages).toContain(original[writeTurn + 1]);
    assertPaired(result.messages);
  });

  it("a summary request that itself overflows is truncated (first exchange and pairs kept) and sent again", async () => {
    const sent: SummaryRequest[] = [];
    let calls = 0;
    const result = await compactConversation(
      options({
        sent,
        summarize: async (request) => {
          sent.push(request);
          calls += 1;
          if (calls === 1) throw Object.assign(new Error("prompt is too long"), { kind: "context_window" });
          return "## Files\nsrc/a.ts\n## Open checklist items\n- [ ] Cache the tokens\n- [ ] Run the benchmark";
        },
      }),
    );
    if (result.kind !== "summary") throw new Error("expected a summary");
    expect(sent).toHaveLength(2);
    expect(result.truncatedForSummary).toBeGreaterThan(0);
    const second = text(sent[1]?.messages[0]?.content);
    expect(second.length).toBeLessThan(text(sent[0]?.messages[0]?.content).length);
    expect(second).toContain("Make the parser faster");
    expect(second).toContain("were left out");
  });

  it("truncates the summary request before sending when it cannot fit the window", async () => {
    const sent: SummaryRequest[] = [];
    const result = await compactConversation(options({ sent, model: { contextWindow: 1_000, maxOutputTokens: 200 }, budget: 600 }));
    if (result.kind !== "summary") throw new Error("expected a summary");
    expect(sent).toHaveLength(1);
    expect(result.truncatedForSummary).toBeGreaterThan(0);
  });

  it("at the threshold, replacing superseded reads is enough when it brings the conversation under the budget (no summary request)", async () => {
    const sent: SummaryRequest[] = [];
    const estimator = new TokenEstimator();
    const before = estimator.messages(history());
    const result = await compactConversation(options({ sent, reason: "threshold", budget: before, estimator }));
    expect(result.kind).toBe("reads");
    expect(sent).toHaveLength(0);
  });

  it("on a small window, the files it re-reads leave room to work: the rebuilt conversation fills at most half the budget, the latest file first", async () => {
    const source = (name: string): string => Array.from({ length: 110 }, (_, line) => `export const ${name}Rule${line} = (entry) => entry.amount * ${line + 1}; // ${name}-${line}`).join("\n");
    const names = ["accounts", "journal", "reports", "taxes", "payroll"];
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "<task>\nDocument each module\n</task>" }] }, ...names.flatMap((name) => call("read_file", { path: `src/${name}.js` }, source(name)))];
    const estimator = new TokenEstimator();
    const budget = 9_000;
    // Each file is about a fifth of the budget: five of them (the default filesKept) would fill it again.
    expect(estimator.text(source("taxes")) * 5).toBeGreaterThan(budget);
    const result = await compactConversation(options({ messages, reason: "threshold", budget, estimator, model: { contextWindow: 12_000, maxOutputTokens: 2_000 }, readFile: async (path) => source(path.slice(4, -3)) }));
    if (result.kind !== "summary") throw new Error(`expected a summary, got ${result.kind}`);
    expect(result.tokensAfter).toBeLessThanOrEqual(budget / 2);
    // What fits is the files read most recently before the kept turns; the oldest is left to the summary.
    expect(result.files).not.toContain("src/accounts.js");
    expect(text(result.messages[0]?.content)).not.toContain("accounts-0");
  });
});
