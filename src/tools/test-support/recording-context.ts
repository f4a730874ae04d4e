/**
 * A ToolCallContext for tests: records every say and ask, and answers asks
 * from a script (one answer per ask, in order; "yes" once the script runs out
 * only when `defaultAnswer` says so).
 */
import type { AskResponse, AskType, SayType } from "../../task/contracts/messages.js";
import type { Mode, ToolCallContext } from "../../task/contracts/tool-executor.js";

export interface RecordedSay {
  type: SayType;
  text: string;
  partial: boolean;
  key?: string;
  meta?: Record<string, unknown>;
}

export interface RecordedAsk {
  type: AskType;
  text: string;
  meta?: Record<string, unknown>;
}

export interface RecordingContext extends ToolCallContext {
  says: RecordedSay[];
  asks: RecordedAsk[];
  mutations: number;
  /** What each beforeMutation named: the files, or undefined for "anything". */
  announced: Array<readonly string[] | undefined>;
  controller: AbortController;
}

export function createRecordingContext(options: { answers?: AskResponse[]; mode?: Mode; defaultAnswer?: AskResponse } = {}): RecordingContext {
  const answers = [...(options.answers ?? [])];
  const controller = new AbortController();
  const context: RecordingContext = {
    says: [],
    asks: [],
    mutations: 0,
    announced: [],
    controller,
    signal: controller.signal,
    mode: options.mode ?? "act",
    say(type, text, sayOptions) {
      const entry: RecordedSay = { type, text, partial: sayOptions?.partial ?? false };
      if (sayOptions?.key !== undefined) entry.key = sayOptions.key;
      if (sayOptions?.meta !== undefined) entry.meta = sayOptions.meta;
      context.says.push(entry);
    },
    async ask(type, text, askOptions) {
      const entry: RecordedAsk = { type, text };
      if (askOptions?.meta !== undefined) entry.meta = askOptions.meta;
      context.asks.push(entry);
      const answer = answers.shift() ?? options.defaultAnswer;
      if (answer === undefined) throw new Error(`unexpected ask "${type}": ${text.slice(0, 200)}`);
      return answer;
    },
    async beforeMutation(paths) {
      context.mutations += 1;
      context.announced.push(paths);
    },
  };
  return context;
}

/** The text content of an outcome, for assertions. */
export function textOf(content: string | Array<{ type: string; text?: string }>): string {
  if (typeof content === "string") return content;
  return content.map((part) => part.text ?? `[${part.type}]`).join("\n");
}
