/**
 * The UI's copy of the task's messages, and the rule that decides what is
 * final. Final messages are printed once above the live area (printed-history.tsx;
 * never rendered again); only the open tail is re-rendered. A streaming answer is printed line
 * by line as its lines complete, so a 1 MB answer never re-renders as a whole.
 */
import { metaOf } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskResponse, SayType, UiMessage } from "../../task/contracts/messages.js";
import { initialMarkdownState, markdownStateAfter, parseMarkdownLines } from "./markdown.js";
import type { MarkdownLine, MarkdownState } from "./markdown.js";
import type { SubagentCard } from "./subagent-board.js";

export type StaticItem =
  | { key: string; kind: "message"; message: UiMessage; answer: AskResponse | undefined }
  /** Complete lines of a streamed answer; `first` marks the message's first lines. */
  | MarkdownItem;

/**
 * Complete lines of a streamed answer, as their source and the markdown state they start in:
 * they are parsed where they are formatted for printing (markdown-print.ts, maybe in a worker);
 * `lines` parses them when read.
 */
export interface MarkdownItem {
  key: string;
  kind: "markdown";
  say: SayType;
  /** The lines, joined by newlines. */
  source: string;
  state: MarkdownState;
  first: boolean;
  readonly lines: MarkdownLine[];
}

export interface LiveItem {
  message: UiMessage;
  /** Markdown messages: how much of the text is already printed above. */
  printedLength: number;
  markdownState: MarkdownState;
  /** The UI is waiting for the user to answer this ask. */
  awaitingAnswer: boolean;
}

export type Activity = { kind: "idle" } | { kind: "waiting"; since: number } | { kind: "command"; since: number; command: string };

export interface TranscriptSnapshot {
  staticItems: readonly StaticItem[];
  live: readonly LiveItem[];
  /** The oldest ask waiting for the user; keys go to it. */
  pendingAsk: AskMessage | undefined;
  activity: Activity;
  lastReasoning: string | undefined;
  /** Complete lines are waiting to be printed: publish again at the next frame. */
  backlog: boolean;
  /** Running subagents, one card each (issue #17; src/ui/tui/subagent-board.ts). */
  subagents?: readonly SubagentCard[];
}

export const emptySnapshot: TranscriptSnapshot = {
  staticItems: [],
  live: [],
  pendingAsk: undefined,
  activity: { kind: "idle" },
  lastReasoning: undefined,
  backlog: false,
};

/**
 * Lines printed per frame at most (a few milliseconds of markdown formatting and writing):
 * each frame stays short enough for a key typed meanwhile to be read and drawn soon after,
 * and a backlog is caught up by frames that follow each other quickly (TuiHost's backlogFrameMs).
 */
export const linesPerFrame = 800;

interface Entry {
  message: UiMessage;
  printedLength: number;
  markdownState: MarkdownState;
}

/** Says that are streamed line by line into the printed history. */
const markdownSays: ReadonlySet<SayType> = new Set(["text", "completion_result"]);
/** Says that do not end the wait for the model's first token. */
const quietSays: ReadonlySet<SayType> = new Set(["api_req_started", "api_req_retried", "checkpoint_created", "info", "hook_status", "mcp_notification", "task", "user_feedback"]);

export function isMarkdownMessage(message: UiMessage): boolean {
  return message.type === "say" && markdownSays.has(message.say);
}

export class Transcript {
  private readonly entries = new Map<string, Entry>();
  private readonly order: string[] = [];
  private readonly answers = new Map<string, AskResponse>();
  private staticItems: StaticItem[] = [];
  private cursor = 0;
  private sequence = 0;
  private request: { id: string; partial: boolean; sequence: number; since: number } | undefined;
  private lastContentSequence = 0;
  private lastReasoningId: string | undefined;
  /** A command that runs now (approved, not finished): its elapsed time is shown, output or not. */
  private runningCommand: { since: number; command: string; sequence: number } | undefined;

  /** Whether a message with this id was shown already, final (it may be printed and cannot change). */
  hasFinal(id: string): boolean {
    const entry = this.entries.get(id);
    return entry !== undefined && !entry.message.partial;
  }

  upsert(message: UiMessage, now: number): void {
    this.sequence += 1;
    this.trackCommand(message, now);
    if (message.type === "say" && message.say === "api_req_started") {
      // Usage and cost of a request reach the status line through the controller; the
      // request itself only drives the "waiting for the model" spinner.
      if (this.request?.id === message.id) {
        this.request.partial = message.partial;
      } else {
        this.request = { id: message.id, partial: message.partial, sequence: this.sequence, since: now };
      }
      return;
    }
    if (message.type === "say" && message.say === "api_req_retried" && this.request !== undefined) {
      this.request.sequence = this.sequence;
      this.request.since = now;
    }
    if (message.type === "ask" || !quietSays.has(message.say)) this.lastContentSequence = this.sequence;
    if (message.type === "say" && message.say === "reasoning") this.lastReasoningId = message.id;
    const entry = this.entries.get(message.id);
    if (entry === undefined) {
      this.entries.set(message.id, { message, printedLength: 0, markdownState: initialMarkdownState });
      this.order.push(message.id);
    } else {
      // An update of a message already printed cannot be shown again; the map keeps it current.
      entry.message = message;
    }
  }

  recordAnswer(id: string, response: AskResponse, now: number = Date.now()): void {
    this.answers.set(id, response);
    const entry = this.entries.get(id);
    if (entry?.message.type === "ask" && entry.message.ask === "command" && response.response === "yes") {
      this.runningCommand = { since: now, command: entry.message.text, sequence: this.sequence };
    }
  }

  private trackCommand(message: UiMessage, now: number): void {
    const meta = metaOf(message, "command");
    // Only a command the approval policy let run starts running: a card closed
    // without a verdict (a hook blocked it, the answer was cut) never ran.
    if (message.type === "say" && message.say === "command" && !message.partial && meta?.approval === "auto" && meta.blocked === undefined) {
      this.runningCommand = { since: now, command: message.text, sequence: this.sequence };
    } else if (message.type === "ask" && message.ask === "command") {
      // Approved later (recordAnswer) from the moment of the answer.
      this.runningCommand = undefined;
    } else if (message.type === "say" && message.say === "command_output" && !message.partial) {
      this.runningCommand = undefined;
    } else if (message.type === "say" && message.say === "api_req_started" && message.partial) {
      this.runningCommand = undefined;
    } else if (message.type === "say" && (message.say === "error" || (message.say === "info" && /interrupted/i.test(message.text)))) {
      this.runningCommand = undefined;
    }
  }

  /** Moves everything that became final into the printed history and describes the rest. */
  snapshot(pending: ReadonlyMap<string, AskMessage>): TranscriptSnapshot {
    const { added, backlog } = this.settle(pending);
    if (added.length > 0) this.staticItems = [...this.staticItems, ...added];
    const live: LiveItem[] = [];
    for (let index = this.cursor; index < this.order.length; index += 1) {
      const entry = this.entries.get(this.order[index]!)!;
      live.push({
        message: entry.message,
        printedLength: entry.printedLength,
        markdownState: entry.markdownState,
        awaitingAnswer: pending.has(entry.message.id),
      });
    }
    const waiting = this.request !== undefined && this.request.partial && this.lastContentSequence < this.request.sequence;
    const firstPending = pending.values().next();
    return {
      staticItems: this.staticItems,
      live,
      pendingAsk: firstPending.done === true ? undefined : firstPending.value,
      activity: waiting
        ? { kind: "waiting", since: this.request!.since }
        : this.runningCommand !== undefined
          ? { kind: "command", since: this.runningCommand.since, command: this.runningCommand.command }
          : { kind: "idle" },
      lastReasoning: this.lastReasoningId === undefined ? undefined : this.entries.get(this.lastReasoningId)?.message.text,
      backlog,
    };
  }

  private settle(pending: ReadonlyMap<string, AskMessage>): { added: StaticItem[]; backlog: boolean } {
    const added: StaticItem[] = [];
    let budget = linesPerFrame;
    while (this.cursor < this.order.length) {
      const id = this.order[this.cursor]!;
      const entry = this.entries.get(id)!;
      const message = entry.message;
      if (pending.has(id)) break;
      // A message is final only when it says so: a partial answer keeps streaming
      // while a checkpoint or a warning is shown after it (issue #12), so it and
      // everything after it stay live until then. An unanswered ask stays open too;
      // a retry countdown only while nothing came after it.
      const isLast = this.cursor === this.order.length - 1;
      const open = message.partial || (message.type === "ask" && !this.answers.has(id) && isLast) || (isLast && message.type === "say" && message.say === "error_retry");
      if (open) {
        if (message.partial && isMarkdownMessage(message)) {
          const printed = this.printLines(entry, { final: false, budget });
          if (printed.item !== undefined) added.push(printed.item);
          return { added, backlog: !printed.done };
        }
        break;
      }
      if (isMarkdownMessage(message)) {
        const printed = this.printLines(entry, { final: true, budget });
        if (printed.item !== undefined) added.push(printed.item);
        budget -= printed.lines;
        if (!printed.done) return { added, backlog: true };
      } else {
        added.push({ key: id, kind: "message", message, answer: this.answers.get(id) });
      }
      this.cursor += 1;
    }
    return { added, backlog: false };
  }

  /**
   * Prints the next complete lines of a streamed answer (all of it once final),
   * at most `budget` lines. `done` tells whether nothing printable is left.
   */
  private printLines(entry: Entry, options: { final: boolean; budget: number }): { item: StaticItem | undefined; lines: number; done: boolean } {
    const text = entry.message.text;
    // P12 may trim a partial tag at the end; never print past what the text now holds.
    if (text.length < entry.printedLength) entry.printedLength = text.length;
    let end = options.final ? text.length : text.lastIndexOf("\n") + 1;
    if (end <= entry.printedLength) return { item: undefined, lines: 0, done: true };
    let lines = 0;
    let position = entry.printedLength;
    while (position < end) {
      const newline = text.indexOf("\n", position);
      if (newline === -1 || newline >= end) {
        position = end;
      } else {
        position = newline + 1;
      }
      lines += 1;
      if (lines >= options.budget && position < end) {
        end = position;
        break;
      }
    }
    let slice = text.slice(entry.printedLength, end);
    if (slice.endsWith("\n")) slice = slice.slice(0, -1);
    const done = options.final ? end === text.length : text.lastIndexOf("\n") + 1 <= end;
    if (slice === "" && (entry.printedLength > 0 || text.trim() === "")) {
      entry.printedLength = end;
      return { item: undefined, lines: 0, done };
    }
    return { item: this.printSlice(entry, slice, end), lines, done };
  }

  private printSlice(entry: Entry, slice: string, newPrintedLength: number): StaticItem {
    const state = entry.markdownState;
    const message = entry.message as Extract<UiMessage, { type: "say" }>;
    const item: MarkdownItem = {
      key: `${message.id}:${entry.printedLength}`,
      kind: "markdown",
      say: message.say,
      source: slice,
      state,
      first: entry.printedLength === 0,
      get lines() {
        return parseMarkdownLines(slice.split("\n"), state).lines;
      },
    };
    entry.printedLength = newPrintedLength;
    entry.markdownState = markdownStateAfter(slice.split("\n"), state);
    return item;
  }
}
