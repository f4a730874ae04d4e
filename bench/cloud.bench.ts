/**
 * Cloud providers (issue 34): CPU to read a 1 MiB answer through cairn's Azure and Bedrock
 * providers against the same official SDK used alone, both from the scripted server over loopback,
 * alternately, medians of CPU time (`npm run bench -- cloud`). Goal: each provider <= 1.05x its SDK.
 * The scripted server runs in this process too, so its CPU is in both sides (as in llm.bench.ts).
 */
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import { BedrockRuntimeClient, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { AzureOpenAI } from "openai";
import { createProvider } from "../src/llm/create-provider.js";
import { startScriptedServer } from "../src/llm/scripted/server.js";
import type { Provider } from "../src/llm/types.js";

const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 7);
const answer = "The quick brown fox jumps over the lazy dog; ünïcödé 😀. ".repeat(18_500).slice(0, 1_048_576);
const pairs = 3;
const turns = Array.from({ length: (repetitions + 1) * pairs * 2 }, () => ({ text: answer, chunkSize: 12 }));
const server = await startScriptedServer({ scenario: { turns } });
const environment = { AWS_ACCESS_KEY_ID: "AKIABENCH", AWS_SECRET_ACCESS_KEY: "bench-secret", AWS_REGION: "us-east-1", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] = "true";
const credentials = { accessKeyId: "AKIABENCH", secretAccessKey: "bench-secret" };
const request = { systemPrompt: "s", messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "go" }] }] };

const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;

async function drain(provider: Provider): Promise<void> {
  let length = 0;
  for await (const chunk of provider.createMessage({ ...request, signal: new AbortController().signal })) if (chunk.type === "text") length += chunk.text.length;
  if (length !== answer.length) throw new Error(`lost text: ${length} of ${answer.length}`);
}

async function cpuPair(sdk: () => Promise<void>, cairn: () => Promise<void>): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  await sdk();
  await cairn();
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    const order = repetition % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const start = process.cpuUsage();
      await (side === 0 ? sdk() : cairn());
      const used = process.cpuUsage(start);
      times[side as 0 | 1].push((used.user + used.system) / 1000);
    }
  }
  return [median(times[0]), median(times[1])];
}

const azureClient = new AzureOpenAI({ baseURL: `${server.url}/openai`, apiKey: "k", apiVersion: "2025-04-01-preview", deployment: "gpt", maxRetries: 0 });
const azureProvider = await createProvider({ provider: "azure", model: "gpt-5.4", baseUrl: server.url, apiKey: "k", environment: { OPENAI_API_VERSION: "2025-04-01-preview", AZURE_OPENAI_DEPLOYMENT: "gpt" } });
const claude = "global.anthropic.claude-sonnet-4-5-20250929-v1:0";
const bedrockAnthropic = new AnthropicBedrock({ baseURL: server.url, awsRegion: "us-east-1", awsAccessKey: credentials.accessKeyId, awsSecretKey: credentials.secretAccessKey, maxRetries: 0 });
const bedrockClaude = await createProvider({ provider: "bedrock", model: claude, baseUrl: server.url, environment });
const converseClient = new BedrockRuntimeClient({ region: "us-east-1", endpoint: server.url, credentials, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
const bedrockNova = await createProvider({ provider: "bedrock", model: "amazon.nova-pro-v1:0", baseUrl: server.url, environment });

const results: Array<[string, number, number]> = [];
results.push([
  "azure, Chat Completions",
  ...(await cpuPair(
    async () => {
      const stream = await azureClient.chat.completions.create({ model: "gpt-5.4", messages: [{ role: "user", content: "go" }], stream: true, stream_options: { include_usage: true } });
      for await (const chunk of stream) void chunk;
    },
    () => drain(azureProvider),
  )),
]);
results.push([
  "bedrock, Claude (invoke stream)",
  ...(await cpuPair(
    async () => {
      const stream = await bedrockAnthropic.messages.create({ model: claude, max_tokens: 64_000, messages: [{ role: "user", content: "go" }], stream: true });
      for await (const event of stream) void event;
    },
    () => drain(bedrockClaude),
  )),
]);
results.push([
  "bedrock, Nova (ConverseStream)",
  ...(await cpuPair(
    async () => {
      const response = await converseClient.send(new ConverseStreamCommand({ modelId: "amazon.nova-pro-v1:0", messages: [{ role: "user", content: [{ text: "go" }] }] }));
      for await (const event of response.stream ?? []) void event;
    },
    () => drain(bedrockNova),
  )),
]);
await server.close();

let failures = 0;
console.log(`node ${process.version}; 1 MiB answer in 12-character deltas; ${repetitions} alternating runs each, median CPU ms (server in-process, both sides)`);
console.log("| provider | SDK alone CPU ms | cairn CPU ms | cairn / SDK | goal |\n|---|---|---|---|---|");
for (const [name, sdk, cairn] of results) {
  const ratio = cairn / sdk;
  if (ratio > 1.05) failures += 1;
  console.log(`| ${name} | ${sdk.toFixed(0)} | ${cairn.toFixed(0)} | ${ratio.toFixed(2)} | <= 1.05 ${ratio <= 1.05 ? "" : "(MISSED)"} |`);
}
console.log(failures === 0 ? "cloud: all goals met" : `cloud: ${failures} goal(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
