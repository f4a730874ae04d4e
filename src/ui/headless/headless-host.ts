/**
 * The Host of `cairn run`: prints the task (JSON lines, see json-events.ts, or text) and answers
 * asks from standard input. It never hangs: with stdin closed, or silent past
 * `askTimeoutMs`, the `--on-ask` policy answers instead.
 */
import { cardMetaOf } from "../../task/contracts/message-meta.js";
import type { Readable, Writable } from "node:stream";
import type { Host } from "../../task/contracts/host.js";
import type { AskMessage, AskResponse, UiMessage } from "../../task/contracts/messages.js";
import { parseAnswerLine, plainAnswer } from "./answer-line.js";
import { HeadlessAskError, formatDuration, type UnansweredReason } from "./errors.js";
import { escapeControlsInJson } from "../terminal-controls.js";
import { FinalMessages, JsonEventFeed } from "./json-event-feed.js";
import { LineReader } from "./line-reader.js";
import { automaticAnswer } from "./policy.js";
import { TextPrinter, followupOptions } from "./text-printer.js";

export interface HeadlessHostOptions {
  json: boolean;
  stdout: Writable;
  stderr: Writable;
  /** Undefined when there is no input at all (treated as closed). */
  stdin: Readable | undefined;
  taskId: string;
  /** Longest wait for an answer; undefined waits as long as stdin is open. */
  askTimeoutMs?: number | undefined;
  onAsk: "deny" | "fail";
  /** `--yes`: every ask is answered at once, approving what can be approved. */
  yes: boolean;
  /**
   * `--json`: a partial update that appends fewer characters than `chars` waits
   * (at most `ms`) for more. Default 512 characters, 1 s; `{ chars: 0 }` writes every update.
   */
  jsonDeltaHold?: { chars: number; ms: number } | undefined;
  /** Colours in text mode (on stderr only); default: when stderr is a terminal and NO_COLOR is unset. */
  color?: boolean | undefined;
}

interface PendingAsk {
  message: AskMessage;
  resolve: (answer: AskResponse) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

/** Colours go only to stderr (the answer on stdout is never coloured): when stderr is a terminal. */
function defaultColor(stderr: Writable): boolean {
  const noColor = process.env["NO_COLOR"];
  return (stderr as Writable & { isTTY?: boolean }).isTTY === true && (noColor === undefined || noColor === "");
}

export class HeadlessHost implements Host {
  readonly #options: HeadlessHostOptions;
  readonly #text: TextPrinter | undefined;
  /** `--json`: the events, written as lines. */
  readonly #json: JsonEventFeed | undefined;
  /** Text: final messages printed once (again only when the Task amends one). */
  readonly #finals = new FinalMessages();
  readonly #reader: LineReader;
  /** Oldest first: plain answers go to the oldest open ask. */
  readonly #pending = new Map<string, PendingAsk>();
  readonly #answered = new Set<string>();

  constructor(options: HeadlessHostOptions) {
    this.#options = options;
    this.#text = options.json ? undefined : new TextPrinter({ stdout: options.stdout, stderr: options.stderr, color: options.color ?? defaultColor(options.stderr) });
    this.#json = options.json ? new JsonEventFeed({ taskId: options.taskId, hold: options.jsonDeltaHold, emit: (event) => options.stdout.write(`${escapeControlsInJson(JSON.stringify(event))}\n`) }) : undefined;
    this.#reader = new LineReader(options.stdin, () => this.#drain());
  }

  onMessage(message: UiMessage): void {
    if (this.#json) this.#json.push(message);
    else if (this.#text && !this.#finals.isRepeat(message)) this.#text.print(message);
  }

  answerAsk(message: AskMessage, signal: AbortSignal): Promise<AskResponse> {
    // The Task shows the ask through onMessage first; a caller that did not still gets it printed.
    this.onMessage(message.partial ? { ...message, partial: false } : message);
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const options = this.#options;
    // SPEC #14: some asks (protected paths, commands cairn cannot check) need a person; --yes is not one.
    if (options.yes && cardMetaOf(message)?.explicitApproval === true) {
      return Promise.resolve(this.#automatic(message, "deny", "it needs an explicit approval, which --yes does not give"));
    }
    if (options.yes) return Promise.resolve(this.#automatic(message, "yes", message.ask === "elicitation" ? "--yes approves actions; it does not fill in an MCP server's form" : undefined));
    if (this.#reader.exhausted) return this.#unanswered(message, "stdin_closed");

    return new Promise<AskResponse>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        this.#settle(message.id);
        reject(abortReason(signal));
      };
      const cleanup = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      if (options.askTimeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.#settle(message.id);
          this.#unanswered(message, "timeout").then(resolve, reject);
        }, options.askTimeoutMs);
      }
      this.#pending.set(message.id, { message, resolve, reject, cleanup });
      this.#text?.askHint(message);
      this.#drain();
    });
  }

  /** Stops reading stdin; call when the task is over so the process can exit. */
  close(): void {
    this.#json?.flush();
    this.#reader.dispose();
    this.#text?.finish();
  }

  /** Hands waiting lines to open asks; with stdin over, the policy answers what is left. */
  #drain(): void {
    while (this.#pending.size > 0) {
      const line = this.#reader.next();
      if (line === undefined) break;
      this.#handleLine(line);
    }
    if (this.#pending.size > 0 && this.#reader.exhausted) {
      for (const pending of [...this.#pending.values()]) {
        this.#settle(pending.message.id);
        this.#unanswered(pending.message, "stdin_closed").then(pending.resolve, pending.reject);
      }
    }
    this.#reader.want(this.#pending.size > 0);
  }

  #handleLine(line: string): void {
    const parsed = parseAnswerLine(line);
    if (parsed.kind === "invalid") {
      this.#problem(`ignored an answer line: ${parsed.problem}`);
      return;
    }
    if (parsed.kind === "json") {
      const pending = this.#pending.get(parsed.id);
      if (pending === undefined) {
        const waiting = [...this.#pending.keys()].join(", ");
        const known = this.#answered.has(parsed.id) ? "was already answered" : "is not an open ask";
        this.#problem(`ignored an answer for ask id ${parsed.id}: it ${known} (waiting for ${waiting})`);
        return;
      }
      this.#answer(pending, parsed.answer);
      return;
    }
    const oldest = this.#pending.values().next().value;
    if (oldest === undefined) return;
    if (this.#options.json) {
      this.#problem(`ignored a line that is not a JSON answer; send {"id": "${oldest.message.id}", "response": "yes" | "no" | "message", "text": "..."}`);
      return;
    }
    const card = cardMetaOf(oldest.message);
    const answer = plainAnswer(parsed.text, followupOptions(oldest.message), card?.suggestedRule !== undefined, card !== undefined && "previewable" in card && card.previewable === true);
    if (answer === undefined) {
      this.#text?.askHint(oldest.message);
      return;
    }
    this.#answer(oldest, answer);
  }

  #answer(pending: PendingAsk, answer: AskResponse): void {
    this.#settle(pending.message.id);
    pending.resolve(answer);
  }

  #settle(id: string): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    pending.cleanup();
    this.#pending.delete(id);
    this.#answered.add(id);
    this.#reader.want(this.#pending.size > 0);
  }

  #unanswered(message: AskMessage, reason: UnansweredReason): Promise<AskResponse> {
    this.#answered.add(message.id);
    const { onAsk, askTimeoutMs } = this.#options;
    // A server's form nobody can fill is declined, never a failed task: the server decides what to do without it.
    if (message.ask === "elicitation") return Promise.resolve(this.#automatic(message, "deny", reason === "timeout" ? "nobody answered in time" : "nobody can answer"));
    if (onAsk === "fail") {
      return Promise.reject(new HeadlessAskError({ askKind: message.ask, askId: message.id, reason, timeoutMs: askTimeoutMs }));
    }
    const why = reason === "timeout" ? `no answer within ${formatDuration(askTimeoutMs ?? 0)}` : "standard input is closed";
    return Promise.resolve(this.#automatic(message, "deny", `${why}; --on-ask deny`));
  }

  #automatic(message: AskMessage, mode: "deny" | "yes", why: string | undefined): AskResponse {
    const answer = automaticAnswer(message.ask, mode);
    if (why !== undefined) {
      const shown = answer.response === "message" ? `message "${answer.text}"` : answer.response;
      const note = `answered ${shown} to the "${message.ask}" ask (${message.id}) automatically: ${why}`;
      if (this.#text) this.#text.note(note);
      else this.#options.stderr.write(`cairn: ${note}\n`);
    }
    return answer;
  }

  #problem(text: string): void {
    if (this.#text) this.#text.problem(text);
    else this.#options.stderr.write(`cairn: ${text}\n`);
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error("The task was aborted.", { cause: reason });
}
