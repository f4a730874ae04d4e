/**
 * The task's budget seam (request-budget.ts): compaction's summary requests take
 * the path of the loop's own requests. The spend caps across tasks (#36) refuse
 * them at a cap and are charged what they cost, in the ledger on disk.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ContextManager } from "../context/context-manager.js";
import { loadTokenizer } from "../context/token-estimate.js";
import { modelInfo } from "../llm/models.js";
import type { Provider } from "../llm/types.js";
import { SpendCap } from "../security/spend-cap.js";
import { FileSpendLedger } from "../store/spend-ledger.js";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { text } from "./test-support/gated-provider.js";
import { conversation } from "../context/test-support/long-conversation.js";
import { complete, makeTask } from "./test-support/make-task.js";

await loadTokenizer();

const folders: Array<{ remove(): Promise<void> }> = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await folder.remove();
});

/** A resumed task whose conversation is condensed before its first request, under a daily spend cap kept in `dataDir`. */
async function cappedTask(daily: number) {
  const folder = await temporaryFolder("cairn-summary-cap-");
  folders.push(folder);
  const ledger = new FileSpendLedger(folder.path, "task-1");
  const summaryProvider: { current?: Provider } = {};
  const model = { ...modelInfo("claude-sonnet-5-5"), contextWindow: 3_000, maxOutputTokens: 500 };
  const manager = new ContextManager({ provider: { name: "gated", model, createMessage: (request) => summaryProvider.current!.createMessage(request) }, readFile: async () => undefined });
  const fixture = makeTask(
    [
      [text("## Task\nRead the listings.\n## Next step\nGo on (summary)."), { type: "usage", inputTokens: 2_000, outputTokens: 100, cost: 0.25 }],
      [text(complete("all read")), { type: "usage", inputTokens: 500, outputTokens: 50, cost: 0.5 }],
    ],
    { yes: true, extra: { history: { apiHistory: conversation(12), uiMessages: [] }, context: manager, spendCap: new SpendCap({ daily }, ledger) } },
  );
  summaryProvider.current = fixture.provider;
  const charges = async (): Promise<number[]> => {
    const day = new Date().toISOString().slice(0, 10);
    const lines = await readFile(join(folder.path, "spend", `${day}.jsonl`), "utf8").catch(() => "");
    return lines
      .trim()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => (JSON.parse(line) as { cost: number }).cost);
  };
  return { ...fixture, ledger, charges };
}

describe("compaction's summary requests and the spend caps", () => {
  it("a summary request is charged to the ledger as the task's own requests are, and counts in the task's cost", async () => {
    const { task, provider, charges } = await cappedTask(10);
    expect((await task.resumeTask([{ type: "text", text: "go on" }])).status).toBe("completed");
    expect(provider.requests[0]?.systemPrompt).toContain("You condense the conversation");
    expect(await charges()).toEqual([0.25, 0.5]);
    expect(task.usage.totals().cost).toBeCloseTo(0.75);
  });

  it("at the cap the summary request is not sent: the task stops with the budget status naming the cap, and nothing more is charged", async () => {
    const { task, provider, ledger, host, charges } = await cappedTask(1);
    await ledger.charge(1, Date.now());
    const result = await task.resumeTask([{ type: "text", text: "go on" }]);
    expect(result.status).toBe("budget");
    expect(result.error).toMatch(/daily spend cap \(spendCap\.daily\) of \$1\.00/);
    expect(provider.requests).toHaveLength(0);
    expect([...host.byId.values()].some((message) => message.type === "say" && message.say === "warning" && /Could not condense the conversation: Spend cap reached/.test(message.text))).toBe(true);
    expect(await charges()).toEqual([1]);
  });
});
