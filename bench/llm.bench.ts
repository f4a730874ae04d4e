/**
 * Provider layer benchmark (issue 3, SPEC P-perf-1 and P-perf-2). Run with `npm run bench -- llm`.
 * Every goal is a ratio of two timings from the same run (median of several repetitions), so the
 * shared machine's speed cancels out. Exits with 1 when a goal is missed.
 *
 * 1. Streaming overhead: reading a long streamed answer through cairn's providers (stall guard,
 *    abort wiring, chunk translation, cost) against iterating the official SDK's own stream, both
 *    from the scripted LLM server over loopback.
 * 2. Tool-call assembly is linear: assembling 4x longer arguments in 4-character deltas costs about
 *    4x (re-parsing on every delta would cost 16x).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { AnthropicProvider } from "../src/llm/anthropic.js";
import { GeminiProvider } from "../src/llm/gemini.js";
import { modelInfo } from "../src/llm/models.js";
import { NativeToolCallAssembler } from "../src/llm/native-tool-calls.js";
import { OpenAiProvider } from "../src/llm/openai.js";
import { OpenAiResponsesProvider } from "../src/llm/openai-responses.js";
import { startScriptedServer } from "../src/llm/scripted/server.js";
import type { Provider } from "../src/llm/types.js";

const REPETITIONS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(run: () => Promise<void>): Promise<number> {
  const timings: number[] = [];
  await run(); // warm-up
  for (let repetition = 0; repetition < REPETITIONS; repetition += 1) {
    const start = process.cpuUsage();
    await run();
    const used = process.cpuUsage(start);
    timings.push((used.user + used.system) / 1000);
  }
  return median(timings);
}

/** Times two runs alternately, so drift in the machine's load hits both alike. */
async function timedPair(baseline: () => Promise<void>, measured: () => Promise<void>): Promise<[number, number]> {
  const baselineTimes: number[] = [];
  const measuredTimes: number[] = [];
  await baseline();
  await measured();
  for (let repetition = 0; repetition < REPETITIONS; repetition += 1) {
    for (const [run, times] of [
      [baseline, baselineTimes],
      [measured, measuredTimes],
    ] as const) {
      // CPU time (this process runs both the server and the client), less disturbed than wall time by other work on the machine.
      const start = process.cpuUsage();
      await run();
      const used = process.cpuUsage(start);
      times.push((used.user + used.system) / 1000);
    }
  }
  return [median(baselineTimes), median(measuredTimes)];
}

const answer = "The quick brown fox jumps over the lazy dog; ünïcödé 😀. ".repeat(4000);
const turns = Array.from({ length: (REPETITIONS + 1) * 8 }, () => ({ text: answer, chunkSize: 8 }));
const server = await startScriptedServer({ scenario: { turns } });
const request = { systemPrompt: "s", messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "go" }] }] };

async function drain(provider: Provider): Promise<void> {
  let length = 0;
  for await (const chunk of provider.createMessage({ ...request, signal: new AbortController().signal })) {
    if (chunk.type === "text") length += chunk.text.length;
  }
  if (length !== answer.length) throw new Error(`lost text: ${length} of ${answer.length}`);
}

const anthropicClient = new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
const openAiClient = new OpenAI({ apiKey: "k", baseURL: `${server.url}/v1`, maxRetries: 0 });
const anthropicProvider = new AnthropicProvider({ apiKey: "k", model: modelInfo("claude-sonnet-5-5"), baseUrl: server.url });
const openAiProvider = new OpenAiProvider({ apiKey: "k", model: modelInfo("gpt-5.4"), baseUrl: `${server.url}/v1` });
const responsesProvider = new OpenAiResponsesProvider({ apiKey: "k", model: modelInfo("gpt-5.4"), baseUrl: `${server.url}/v1` });
const geminiClient = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: server.url } });
const geminiProvider = new GeminiProvider({ apiKey: "k", model: modelInfo("gemini-2.5-pro"), baseUrl: server.url });

const [sdkAnthropic, cairnAnthropic] = await timedPair(
  async () => {
    const stream = await anthropicClient.messages.create({ model: "claude-sonnet-5-5", max_tokens: 100, messages: [{ role: "user", content: "go" }], stream: true });
    for await (const event of stream) void event;
  },
  () => drain(anthropicProvider),
);
const [sdkOpenAi, cairnOpenAi] = await timedPair(
  async () => {
    // The same request options cairn sends, so both read the same bytes.
    const stream = await openAiClient.chat.completions.create({
      model: "gpt-5.4",
      messages: [{ role: "user", content: "go" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) void chunk;
  },
  () => drain(openAiProvider),
);
const [sdkResponses, cairnResponses] = await timedPair(
  async () => {
    const stream = await openAiClient.responses.create({
      model: "gpt-5.4",
      input: [{ role: "user", content: [{ type: "input_text", text: "go" }] }],
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { summary: "auto" },
    });
    for await (const event of stream) void event;
  },
  () => drain(responsesProvider),
);
const [sdkGemini, cairnGemini] = await timedPair(
  async () => {
    const stream = await geminiClient.models.generateContentStream({
      model: "gemini-2.5-pro",
      contents: [{ role: "user", parts: [{ text: "go" }] }],
      config: { systemInstruction: "s", thinkingConfig: { includeThoughts: true } },
    });
    for await (const response of stream) void response;
  },
  () => drain(geminiProvider),
);
await server.close();

function argumentsText(size: number): string {
  const line = 'export const value = items.filter((item) => item.size < limit && item.name !== "x");\n';
  return JSON.stringify({ path: "big.ts", content: line.repeat(Math.ceil(size / line.length)).slice(0, size) });
}

async function assemble(text: string): Promise<void> {
  const assembler = new NativeToolCallAssembler();
  assembler.push({ type: "tool_call", index: 0, id: "c", name: "write_to_file", argumentsDelta: "" });
  for (let start = 0; start < text.length; start += 4) {
    assembler.push({ type: "tool_call", index: 0, argumentsDelta: text.slice(start, start + 4) });
  }
  assembler.finish();
}

const small = argumentsText(200_000);
const large = argumentsText(800_000);
const assembleSmall = await timed(() => assemble(small));
const assembleLarge = await timed(() => assemble(large));

const goals = [
  { name: "Anthropic provider / bare SDK stream (800 KB answer)", ratio: cairnAnthropic / sdkAnthropic, limit: 1.5 },
  { name: "OpenAI provider / bare SDK stream (800 KB answer)", ratio: cairnOpenAi / sdkOpenAi, limit: 1.5 },
  { name: "OpenAI Responses provider / bare SDK stream (800 KB answer)", ratio: cairnResponses / sdkResponses, limit: 1.5 },
  { name: "Gemini provider / bare SDK stream (800 KB answer)", ratio: cairnGemini / sdkGemini, limit: 1.5 },
  { name: "tool-call assembly 800 KB / 200 KB arguments in 4-char deltas (linear = 4)", ratio: assembleLarge / assembleSmall, limit: 6 },
];
console.log(`| measure | ratio | goal |\n|---|---|---|`);
let missed = 0;
for (const goal of goals) {
  const ok = goal.ratio <= goal.limit;
  if (!ok) missed += 1;
  console.log(`| ${goal.name} | ${goal.ratio.toFixed(2)} | <= ${goal.limit} ${ok ? "" : "(MISSED)"} |`);
}
console.log(
  `\n(median CPU ms: SDK anthropic ${sdkAnthropic.toFixed(1)}, cairn anthropic ${cairnAnthropic.toFixed(1)}, ` +
    `SDK openai ${sdkOpenAi.toFixed(1)}, cairn openai ${cairnOpenAi.toFixed(1)}, ` +
    `SDK responses ${sdkResponses.toFixed(1)}, cairn responses ${cairnResponses.toFixed(1)}, SDK gemini ${sdkGemini.toFixed(1)}, cairn gemini ${cairnGemini.toFixed(1)}, assemble 200 KB ${assembleSmall.toFixed(1)}, 800 KB ${assembleLarge.toFixed(1)})`,
);
process.exitCode = missed === 0 ? 0 : 1;
