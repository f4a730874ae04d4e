/**
 * The Host of a task run through the SDK: every UI message becomes an event
 * (json-event-feed.ts, the objects of `--json`), and an ask is answered by
 * `canUseTool` (approvals), `onAsk`, `task.answer(id, ...)`, or the
 * `unansweredAsks` policy. It never prints and never reads stdin.
 */
import type { Host } from "../task/contracts/host.js";
import { cardMetaOf } from "../task/contracts/message-meta.js";
import type { AskMessage, AskResponse, UiMessage } from "../task/contracts/messages.js";
import { JsonEventFeed } from "../ui/headless/json-event-feed.js";
import { automaticAnswer } from "../ui/headless/policy.js";
import { wholeMessageRecord } from "../ui/headless/json-events.js";
import { UnansweredAskError } from "./errors.js";
import type { AskEvent, CairnEvent } from "./events.js";
import type { AskAnswer, TaskOptions } from "./options.js";

const approvalKinds = new Set(["tool", "command", "use_mcp_server"]);

function normalAnswer(answer: AskAnswer): AskResponse {
  return typeof answer === "string" ? { response: answer } : answer;
}

export class SdkHost implements Host {
  readonly #feed: JsonEventFeed;
  readonly #emit: (event: CairnEvent) => void;
  readonly #options: TaskOptions & { yes: boolean };
  readonly #waiting = new Map<string, { resolve: (answer: AskResponse) => void; cleanup: () => void }>();
  readonly #taskId: string;

  constructor(options: { taskId: string; emit: (event: CairnEvent) => void; task: TaskOptions & { yes: boolean } }) {
    this.#emit = options.emit;
    this.#taskId = options.taskId;
    this.#options = options.task;
    // Every update is an event of its own: a program decides itself how often to redraw.
    this.#feed = new JsonEventFeed({ taskId: options.taskId, hold: { chars: 0, ms: 0 }, emit: (event) => options.emit(event as unknown as CairnEvent) });
  }

  onMessage(message: UiMessage): void {
    this.#feed.push(message);
  }

  async answerAsk(message: AskMessage, signal: AbortSignal): Promise<AskResponse> {
    this.onMessage(message.partial ? { ...message, partial: false } : message);
    const ask = { v: 2, ...wholeMessageRecord(message, this.#taskId) } as unknown as AskEvent;
    const card = cardMetaOf(message);
    const { canUseTool, onAsk } = this.#options;
    if (canUseTool !== undefined && approvalKinds.has(message.ask)) {
      const decision = await canUseTool({ toolName: toolNameOf(message), input: { ...(message.meta ?? {}) }, ask, signal });
      return decision.behavior === "allow" ? { response: "yes" } : { response: "no", ...(decision.message ? { text: decision.message } : {}) };
    }
    if (onAsk !== undefined) {
      const answer = await onAsk(ask, signal);
      if (answer !== undefined) return normalAnswer(answer);
    }
    // bypassPermissions approves what --yes approves; an ask that needs a person is left to the policy.
    if (this.#options.yes && card?.explicitApproval !== true) return automaticAnswer(message.ask, "yes");
    const policy = this.#options.unansweredAsks ?? "deny";
    if (policy === "deny") return automaticAnswer(message.ask, "deny");
    if (policy === "fail") throw new UnansweredAskError(message.ask, message.id);
    return new Promise<AskResponse>((resolve, reject) => {
      const onAbort = (): void => {
        cleanup();
        reject(signal.reason instanceof Error ? signal.reason : new Error("The task was aborted."));
      };
      const cleanup = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.#waiting.delete(message.id);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(message.id, { resolve, cleanup });
    });
  }

  /** Answers an open ask; false when no ask with this id waits. */
  answer(askId: string, answer: AskAnswer): boolean {
    const waiting = this.#waiting.get(askId);
    if (waiting === undefined) return false;
    waiting.cleanup();
    waiting.resolve(normalAnswer(answer));
    return true;
  }

  /** A note of the session's (a setting's warning, the sandbox's state) as a warning event. */
  notice(text: string): void {
    this.#emit({ v: 2, type: "say", say: "warning", text, partial: false, ts: Date.now(), id: `notice-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, taskId: this.#taskId });
  }

  flush(): void {
    this.#feed.flush();
  }
}

/** The tool as the model called it: a custom tool by its own name, an MCP tool as `mcp__server__tool` (the name rules use). */
function toolNameOf(message: AskMessage): string {
  const meta = message.meta ?? {};
  const text = (key: string): string | undefined => (typeof meta[key] === "string" ? meta[key] : undefined);
  const tool = text("tool");
  if (tool === "custom_tool") return text("name") ?? tool;
  if (tool === "use_mcp_tool") return `mcp__${text("server") ?? ""}__${text("name") ?? ""}`;
  return tool ?? (message.ask === "command" ? "execute_command" : message.ask);
}
