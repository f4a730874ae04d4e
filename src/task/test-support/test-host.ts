import type { Host } from "../contracts/host.js";
import type { AskMessage, AskResponse, UiMessage } from "../contracts/messages.js";

export type AskAnswerer = (message: AskMessage, signal: AbortSignal) => Promise<AskResponse> | AskResponse;

/** Records every message the task sends and answers asks from a script. */
export class TestHost implements Host {
  /** Every update, in order. */
  readonly updates: UiMessage[] = [];
  /** The latest state of each message, in first-appearance order. */
  readonly byId = new Map<string, UiMessage>();
  readonly asks: AskMessage[] = [];
  private answerer: AskAnswerer;
  private askWaiters: Array<(message: AskMessage) => void> = [];

  constructor(answerer: AskAnswerer = () => ({ response: "yes" })) {
    this.answerer = answerer;
  }

  setAnswerer(answerer: AskAnswerer): void {
    this.answerer = answerer;
  }

  onMessage(message: UiMessage): void {
    this.updates.push(message);
    this.byId.set(message.id, message);
  }

  async answerAsk(message: AskMessage, signal: AbortSignal): Promise<AskResponse> {
    this.asks.push(message);
    for (const wake of this.askWaiters.splice(0)) wake(message);
    return this.answerer(message, signal);
  }

  /** Resolves at the next ask. */
  nextAsk(): Promise<AskMessage> {
    return new Promise((resolve) => this.askWaiters.push(resolve));
  }

  finalMessages(): UiMessage[] {
    return [...this.byId.values()];
  }

  says(kind: string): UiMessage[] {
    return this.finalMessages().filter((message) => message.type === "say" && message.say === kind);
  }

  texts(): string[] {
    return this.says("text").map((message) => message.text);
  }
}

/** An answer that waits until the task aborts, like a user who never answers. */
export function neverAnswer(_message: AskMessage, signal: AbortSignal): Promise<AskResponse> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
  });
}
