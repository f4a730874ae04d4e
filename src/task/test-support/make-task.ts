import type { Message } from "../../llm/types.js";
import type { PromptBuilder } from "../contracts/prompt-builder.js";
import type { CheckpointGate, McpGate, TaskHooks, TaskLog, TaskLogEntry } from "../contracts/seams.js";
import { Task } from "../task.js";
import type { TaskOptions } from "../task.js";
import { FakeToolExecutor } from "./fake-tools.js";
import { GatedProvider } from "./gated-provider.js";
import type { Step } from "./gated-provider.js";
import { TestHost } from "./test-host.js";
import type { AskAnswerer } from "./test-host.js";

export const testPrompt: PromptBuilder = {
  systemPrompt: async ({ mode, protocol, mcpSection }) => `SYSTEM mode=${mode} protocol=${protocol}\n${mcpSection}`,
  environmentDetails: async ({ includeFileListing }) => `<environment_details>${includeFileListing ? "files" : ""}</environment_details>`,
};

export class MemoryLog implements TaskLog {
  readonly entries: TaskLogEntry[] = [];
  append(entry: TaskLogEntry): void {
    this.entries.push(structuredClone(entry));
  }
  async flush(): Promise<void> {}
}

export interface TaskFixture {
  task: Task;
  provider: GatedProvider;
  host: TestHost;
  tools: FakeToolExecutor;
  log: MemoryLog;
}

export function makeTask(
  turns: Step[][],
  options: {
    answer?: AskAnswerer;
    yes?: boolean;
    protocol?: "xml" | "native";
    parallelTools?: boolean;
    maxMistakes?: number;
    mcp?: McpGate;
    hooks?: TaskHooks;
    checkpoints?: CheckpointGate;
    extra?: Partial<TaskOptions>;
  } = {},
): TaskFixture {
  const provider = new GatedProvider(turns);
  const host = new TestHost(options.answer);
  const tools = new FakeToolExecutor({ yes: options.yes ?? false, clock: () => provider.sent });
  const log = new MemoryLog();
  const task = new Task({
    taskId: "task-1",
    provider,
    toolExecutor: tools,
    host,
    prompt: testPrompt,
    protocol: options.protocol ?? "xml",
    yes: options.yes ?? false,
    maxMistakes: options.maxMistakes ?? 3,
    parallelTools: options.parallelTools ?? false,
    retrySchedule: { delaysMs: [1, 1, 1], jitter: 0 },
    partialUpdateIntervalMs: 0,
    log,
    ...(options.mcp ? { mcp: options.mcp } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
    ...options.extra,
  });
  return { task, provider, host, tools, log };
}

/** The text of a message's content blocks, joined. */
export function messageText(message: Message | undefined): string {
  if (!message) return "";
  return message.content
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "tool_result") return typeof block.content === "string" ? block.content : block.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return "";
    })
    .join("\n");
}

export const complete = (result = "done"): string => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;
