import { describe, expect, it } from "vitest";
import { ProviderError } from "../llm/errors.js";
import { MockProvider } from "../llm/scripted/mock-provider.js";
import type { Chunk, ProviderRequest } from "../llm/types.js";
import { SharedRateLimit } from "./shared-rate-limit.js";

function request(task: string): ProviderRequest {
  return { systemPrompt: "", messages: [{ role: "user", content: [{ type: "text", text: task }] }], signal: new AbortController().signal };
}

async function drain(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("subagents share a rate limit: one 429 holds back the others", () => {
  it("a 429 seen by one subagent holds back the next request of another until its retry-after has passed", async () => {
    const provider = new MockProvider({
      scenario: {
        turns: [],
        conversations: [
          { match: "ALPHA", turns: [{ error: { status: 429, headers: { "retry-after": "1" } } }] },
          { match: "BETA", turns: [{ text: "beta answer" }] },
        ],
      },
    });
    const limit = new SharedRateLimit();
    const shared = limit.wrap(provider);
    const failed = await drain(shared.createMessage(request("ALPHA go"))).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProviderError);
    expect((failed as ProviderError).kind).toBe("rate_limit");
    expect(limit.remainingMs()).toBeGreaterThan(500);
    const started = Date.now();
    const chunks = await drain(shared.createMessage(request("BETA go")));
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(chunks.some((chunk) => chunk.type === "text" && chunk.text.includes("beta"))).toBe(true);
  });

  it("without a 429, requests are not held back", async () => {
    const limit = new SharedRateLimit();
    const shared = limit.wrap(new MockProvider({ scenario: { turns: [{ text: "hello" }] } }));
    await drain(shared.createMessage(request("task")));
    expect(limit.remainingMs()).toBe(0);
  });
});
