/**
 * The real terminal UI on a real terminal, driven by a small scripted task
 * instead of a model: it streams an answer, asks to approve an edit, then runs
 * a "command" that prints until it is aborted. Used by the tmux test; run it by
 * hand with `node --import tsx src/ui/tui/test-support/tui-playground.ts`.
 */
import type { SayMeta, ToolMetaOf } from "../../../task/contracts/message-meta.js";
import type { AskMessage, SayType, UiMessage } from "../../../task/contracts/messages.js";
import type { TuiController, TuiMode, TuiStatus } from "../controller.js";
import { renderTui } from "../render.js";
import { TuiHost } from "../tui-host.js";

const host = new TuiHost();
let counter = 0;
let mode: TuiMode = "act";
let busy = false;
let cost = 0;
let abortController = new AbortController();

function say<K extends SayType>(kind: K, text: string, options: { id?: string; partial?: boolean; meta?: SayMeta<K> } = {}): string {
  counter += 1;
  const id = options.id ?? `m${counter}`;
  const message: UiMessage = { id, ts: Date.now(), type: "say", say: kind, text, partial: options.partial ?? false };
  if (options.meta !== undefined) message.meta = options.meta;
  host.onMessage(message);
  return id;
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error("aborted"));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const answer = [
  "## The bug",
  "",
  "`add` **subtracts** instead of adding:",
  "- the test expects `add(2, 3)` to be 5",
  "- the code returns `a - b`",
  "",
  "```ts",
  "export const add = (a: number, b: number) => a + b;",
  "```",
  "I will fix it now.",
].join("\n");

async function runTask(task: string, signal: AbortSignal): Promise<void> {
  say("task", task);
  const request = say("api_req_started", "", { partial: true });
  await sleep(600, signal);
  const textId = `text-${counter}`;
  for (let end = 4; end < answer.length + 4; end += 4) {
    say("text", answer.slice(0, end), { id: textId, partial: true });
    await sleep(5, signal);
  }
  say("text", answer, { id: textId });
  say("api_req_started", "", { id: request, meta: { tokensIn: 1200, tokensOut: 300, cacheReads: 0, cacheWrites: 0, cost: 0.0042 } });
  cost += 0.0042;
  const diff = "--- a/src/math.ts\n+++ b/src/math.ts\n@@ -1 +1 @@\n-export const add = (a: number, b: number) => a - b;\n+export const add = (a: number, b: number) => a + b;\n";
  const meta: ToolMetaOf<"replace_in_file"> = { tool: "replace_in_file", path: "src/math.ts", diff, approval: "ask" };
  say("tool", "Edit src/math.ts", { meta });
  counter += 1;
  const ask: AskMessage = { id: `ask-${counter}`, ts: Date.now(), type: "ask", ask: "tool", text: "Edit src/math.ts", partial: false, meta };
  host.onMessage(ask);
  const response = await host.answerAsk(ask, signal);
  say("info", `edit answer: ${response.response}`);
  say("command", "npm test", { meta: { tool: "execute_command", command: "npm test -- --watch", approval: "auto" } });
  const outputId = `output-${counter}`;
  let output = "";
  for (let tick = 1; ; tick += 1) {
    output += `tick ${tick}\n`;
    say("command_output", output, { id: outputId, partial: true });
    try {
      await sleep(200, signal);
    } catch (error) {
      say("command_output", output, { id: outputId, meta: { tool: "execute_command", end: { kind: "aborted" }, durationMs: 0 } });
      throw error;
    }
  }
}

const controller: TuiController = {
  submit(text) {
    abortController = new AbortController();
    busy = true;
    runTask(text, abortController.signal)
      .catch(() => say("error", "The step was aborted; the task can be resumed."))
      .finally(() => {
        busy = false;
      });
  },
  abort() {
    abortController.abort();
  },
  exit() {},
  toggleMode() {
    mode = mode === "act" ? "plan" : "act";
    return mode;
  },
  status(): TuiStatus {
    return { model: "scripted-model", mode, tokensUsed: 1500, contextWindow: 200_000, cost, busy };
  },
};

const instance = renderTui({ controller, host });
await instance.waitUntilExit();
process.stdout.write("cairn playground exited\n");
