import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useScriptedServer } from "../test-support/scripted-server-fixture.js";
import { parseScenario } from "./scenario.js";
import type { Scenario } from "./scenario.js";

const scripted = useScriptedServer();

async function start(scenario: Scenario, logFile?: string) {
  const server = await scripted.start(scenario, { ...(logFile === undefined ? {} : { logFile }) });
  return server;
}

function post(url: string, body: unknown) {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

interface SseData {
  type?: string;
  delta?: { type?: string; partial_json?: string };
  usage?: unknown;
}

function sseData(text: string): SseData[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as SseData);
}

describe("scripted LLM server", () => {
  it("answers turn N to request N across both APIs and logs every body as a JSON line", async () => {
    const folder = mkdtempSync(join(tmpdir(), "cairn-scripted-"));
    try {
      const log = join(folder, "requests.jsonl");
      const { url, requests } = await start({ turns: [{ text: "first" }, { text: "second" }] }, log);
      const first = await (await post(`${url}/v1/messages`, { model: "claude-x", stream: true, messages: [] })).text();
      const second = await (await post(`${url}/v1/chat/completions`, { model: "gpt-x", stream: true, messages: [] })).text();
      expect(first).toContain('"text":"first"');
      expect(first.startsWith("event: message_start\ndata: ")).toBe(true);
      expect(second).toContain('"content":"second"');
      expect(second.trimEnd().endsWith("data: [DONE]")).toBe(true);
      expect(requests.map((request) => request.path)).toEqual(["/v1/messages", "/v1/chat/completions"]);
      const lines = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { body: { model: string } });
      expect(lines.map((line) => line.body.model)).toEqual(["claude-x", "gpt-x"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("sends the Anthropic event sequence for thinking, text and a tool call", async () => {
    const { url } = await start({
      turns: [{ reasoning: "hmm", reasoningSignature: "sig", text: "hi", toolCalls: [{ id: "toolu_1", name: "read", arguments: { path: "a" } }], chunkSize: 3 }],
    });
    const text = await (await post(`${url}/v1/messages`, { stream: true })).text();
    const events = text
      .split("\n")
      .filter((line) => line.startsWith("event: "))
      .map((line) => line.slice(7));
    expect(events).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      // the tool call: an empty delta first, as the API sends, then 12 characters in 4 pieces
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const json = sseData(text)
      .filter((data) => data.delta?.type === "input_json_delta")
      .map((data) => data.delta?.partial_json);
    expect(json.join("")).toBe('{"path":"a"}');
    expect(sseData(text).find((data) => data.type === "message_delta")).toMatchObject({ delta: { stop_reason: "tool_use" } });
  });

  it("sends OpenAI usage only when stream_options.include_usage is set", async () => {
    const { url } = await start({ turns: [{ text: "a", usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 3 } }, { text: "b" }] });
    const withUsage = sseData(await (await post(`${url}/v1/chat/completions`, { stream: true, stream_options: { include_usage: true } })).text());
    expect(withUsage.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 8, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 3 } } });
    const without = sseData(await (await post(`${url}/v1/chat/completions`, { stream: true })).text());
    expect(without.some((data) => data.usage !== undefined)).toBe(false);
  });

  it("returns the scripted HTTP error with its headers, and a clear error past the last turn", async () => {
    const { url } = await start({ turns: [{ error: { status: 429, headers: { "retry-after": "3" } } }] });
    const limited = await post(`${url}/v1/messages`, { stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    const beyond = await post(`${url}/v1/chat/completions`, { stream: true });
    expect(beyond.status).toBe(400);
    expect(JSON.stringify(await beyond.json())).toContain("the scenario has 1 turns but this is request 2");
  });

  it("drops the connection after N chunks", async () => {
    const { url } = await start({ turns: [{ text: "abcdefghij", chunkSize: 1, dropAfterChunks: 4 }] });
    const response = await post(`${url}/v1/messages`, { stream: true });
    await expect(response.text()).rejects.toThrow();
    expect(scripted.server!.chunksSent(0)).toBe(4);
  });

  it("stalls after N chunks with the socket open, and sees the client close it", async () => {
    const { url } = await start({ turns: [{ text: "abcdefghij", chunkSize: 1, stallAfterChunks: 3 }] });
    const response = await post(`${url}/v1/chat/completions`, { stream: true });
    const reader = response.body!.getReader();
    await scripted.server!.waitForChunks(0, 3);
    expect(scripted.server!.progress(0)).toMatchObject({ chunksSent: 3, completed: false, closedByClient: false });
    await reader.cancel();
    await scripted.server!.waitForClientClose(0);
    expect(scripted.server!.progress(0).closedByClient).toBe(true);
  });

  it("sends a mid-stream error event", async () => {
    const { url } = await start({ turns: [{ text: "abc", streamError: { type: "overloaded_error", message: "Overloaded", afterChunks: 3 } }] });
    const text = await (await post(`${url}/v1/messages`, { stream: true })).text();
    expect(text.trimEnd().endsWith('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toBe(true);
  });
});

describe("parseScenario", () => {
  it("reports every problem with its path", () => {
    expect(() => parseScenario({ turns: [{ text: 3 }, { toolCalls: [{ arguments: {} }] }], extra: 1 })).toThrow(/turns\[0\]\.text[\s\S]*turns\[1\]\.toolCalls\[0\]\.name[\s\S]*docs\/scripted-llm\.md/);
  });
});
