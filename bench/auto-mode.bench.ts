/**
 * Auto mode's overhead per action (issue 30). Run with `npm run bench -- auto-mode`.
 * One approval of an edit through the real policy, interleaved and repeated:
 * - baseline: the ask is answered at once (a person who never hesitates);
 * - auto mode: the judge's request (task, the last 8 messages of a realistic
 *   transcript, the action and its diff) goes over loopback HTTP to cairn's
 *   scripted server, which answers at once, and is read back.
 * So the difference is cairn's own cost per action (building the request,
 * HTTP, parsing the answer); a real judge model adds its own latency on top.
 * Also the judge request's size, in characters and estimated tokens (4
 * characters a token), which is what a real provider would bill.
 */
import { performance } from "node:perf_hooks";
import { createProvider } from "../src/llm/create-provider.js";
import { startScriptedServer } from "../src/llm/scripted/server.js";
import type { Message, Provider } from "../src/llm/types.js";
import { ApprovalPolicy, defaultApprovalSettings } from "../src/tools/approval.js";
import { judgeRequest } from "../src/tools/auto-mode/judge-prompt.js";
import { ModelJudge } from "../src/tools/auto-mode/model-judge.js";
import { createRecordingContext } from "../src/tools/test-support/recording-context.js";

const repetitions = 200;
const answer = { text: '{"decision": "allow", "reason": "the edit the task asks for"}', usage: { inputTokens: 0, outputTokens: 0 } };
const server = await startScriptedServer({ scenario: { turns: [], routes: [{ bodyIncludes: "cairn's auto-mode judge", turns: Array.from({ length: repetitions + 20 }, () => answer) }] } });

// A transcript as a task builds it: the task, then rounds of text, a tool call and its result (a file of ~3 kB).
const file = Array.from({ length: 80 }, (_, line) => `export function helper${line}(value: number): number { return value * ${line}; }`).join("\n");
const history: Message[] = [{ role: "user", content: [{ type: "text", text: "<task>\nrename helper3 to triple everywhere in src/\n</task>" }] }];
for (let round = 0; round < 12; round++) {
  history.push({
    role: "assistant",
    content: [
      { type: "text", text: `Reading file ${round}.` },
      { type: "tool_use", id: `call-${round}`, name: "read_file", input: { path: `src/file-${round}.ts` } },
    ],
  });
  history.push({ role: "user", content: [{ type: "tool_result", toolUseId: `call-${round}`, content: file }] });
}
const diff = Array.from({ length: 40 }, (_, line) => `-  helper3(${line})\n+  triple(${line})`).join("\n");
const request = { kind: "edit" as const, inside: true, path: "src/file-3.ts" };
const presentation = { key: "k", text: "src/file-3.ts", meta: { tool: "write_to_file" as const, path: "src/file-3.ts", diff } };

const provider: Provider = await createProvider({ provider: "anthropic", apiKey: "bench-key", baseUrl: server.url, model: "claude-haiku-5-5" });
const judge = new ModelJudge({ provider, conversation: () => ({ task: "rename helper3 to triple everywhere in src/", history }), headless: false, maxTokens: Number.MAX_SAFE_INTEGER, timeoutMs: 10_000 });
const withJudge = new ApprovalPolicy({ settings: defaultApprovalSettings, yes: false, allowOutsideWrites: false, judge });
const withoutJudge = new ApprovalPolicy({ settings: defaultApprovalSettings, yes: false, allowOutsideWrites: false });

async function once(policy: ApprovalPolicy): Promise<{ wall: number; cpu: number }> {
  const context = createRecordingContext({ defaultAnswer: { response: "yes" } });
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const decision = await policy.approve({ request, context, presentation });
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  if (!decision.approved) throw new Error("the bench's edit was not approved");
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;
for (let warm = 0; warm < 10; warm++) {
  await once(withoutJudge);
  await once(withJudge);
}
const base = { wall: [] as number[], cpu: [] as number[] };
const auto = { wall: [] as number[], cpu: [] as number[] };
for (let repetition = 0; repetition < repetitions; repetition++) {
  const first = repetition % 2 === 0;
  for (const [policy, samples] of first
    ? ([
        [withoutJudge, base],
        [withJudge, auto],
      ] as const)
    : ([
        [withJudge, auto],
        [withoutJudge, base],
      ] as const)) {
    const sample = await once(policy);
    samples.wall.push(sample.wall);
    samples.cpu.push(sample.cpu);
  }
}
await server.close();

const sent = judgeRequest({ task: "rename helper3 to triple everywhere in src/", history, action: { tool: "write_to_file", text: "src/file-3.ts", diff } });
const characters = sent.systemPrompt.length + JSON.stringify(sent.messages).length;
const tokensIn = Math.ceil(characters / 4);
const tokensOut = Math.ceil(answer.text.length / 4);
console.log(
  `auto mode per action (median of ${repetitions}, interleaved): ${median(auto.wall).toFixed(2)} ms wall, ${median(auto.cpu).toFixed(2)} ms CPU with the judge (loopback scripted model) vs ${median(base.wall).toFixed(2)} ms wall, ${median(base.cpu).toFixed(2)} ms CPU answered at once: +${(median(auto.wall) - median(base.wall)).toFixed(2)} ms wall, +${(median(auto.cpu) - median(base.cpu)).toFixed(2)} ms CPU of cairn's own per judged action`,
);
console.log(
  `judge request: ${characters.toLocaleString("en-US")} characters (~${tokensIn.toLocaleString("en-US")} tokens in, ~${tokensOut} out) for a 25-message transcript with 3 kB tool results (8 messages sent, each block clipped to 1,500 characters); at claude-haiku-5-5's prices ($0.10 / $0.50 per million) about $${((tokensIn * 0.1 + tokensOut * 0.5) / 1e6).toFixed(5)} an action`,
);
