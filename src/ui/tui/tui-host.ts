import { cardMetaOf } from "../../task/contracts/message-meta.js";
import { commandSucceeded, diagnosticsText } from "../../task/contracts/tool-ending.js";
import type { Host } from "../../task/contracts/host.js";
import type { AskMessage, AskResponse, UiMessage } from "../../task/contracts/messages.js";
import { systemClock } from "./clock.js";
import type { TuiClock } from "./clock.js";
import { Transcript, emptySnapshot } from "./transcript.js";
import { SubagentBoard } from "./subagent-board.js";
import type { TranscriptSnapshot } from "./transcript.js";
import { appendedText } from "../../task/contracts/message-growth.js";
import { hasControls, neutralizeControls, neutralizeDeep } from "../terminal-controls.js";

/**
 * Messages made displayable: without escape sequences or control characters
 * (carriage returns kept: the layout shows what a terminal would), so nothing
 * the model or a command wrote can reach the user's terminal
 * (src/ui/terminal-controls.ts). A partial message's text is checked only
 * where an update extends it (appendedText): checking the whole text at every
 * update cost a long answer time that grew with the square of its length.
 */
class Displayable {
  /** Texts of partial messages, by id, known to hold no control character. */
  readonly #plain = new Map<string, string>();

  of<M extends UiMessage>(message: M): M {
    const text = this.#text(message);
    if (message.meta === undefined) return text === message.text ? message : { ...message, text };
    return { ...message, text, meta: neutralizeDeep(message.meta, { carriageReturns: "keep" }) };
  }

  #text(message: UiMessage): string {
    const known = this.#plain.get(message.id);
    const added = known === undefined ? undefined : appendedText(message.text, known);
    const plain = added === undefined ? !hasControls(message.text) : !hasControls(added);
    if (message.partial && plain) this.#plain.set(message.id, message.text);
    else this.#plain.delete(message.id);
    return plain ? message.text : neutralizeControls(message.text, { partial: message.partial, carriageReturns: "keep" });
  }
}

/** How long the UI waits at least between two renders for new messages, by default: a fast answer costs a render per 80 ms; keys are drawn at once, whatever the rate. */
export const defaultFrameMs = 80;

/**
 * While complete lines wait to be printed (a burst, or an answer that arrived faster than the
 * screen), the next frame comes this soon: each frame prints a bounded number of lines
 * (transcript.ts), so the backlog is caught up in short steps with the keys read between them.
 */
export const backlogFrameMs = 16;

export interface TuiHostOptions {
  /** Defaults to the system clock; tests pass a manual one. */
  clock?: TuiClock;
  /** Upper bound on how often the UI renders for new messages (default: every defaultFrameMs). */
  rendersPerSecond?: number;
}

interface PendingAsk {
  message: AskMessage;
  resolve: (response: AskResponse) => void;
  reject: (error: Error) => void;
  stopListening: () => void;
}

/** A card again without its diff or content (shown on the card already): its path and what was added. */
function withoutPreview(message: UiMessage): UiMessage {
  if (message.meta === undefined) return message;
  const { diff: _diff, content: _content, ...meta } = message.meta;
  return { ...message, meta };
}

/**
 * The terminal UI's side of the Host seam. Messages land in a transcript at
 * any rate; the UI is told at most `rendersPerSecond` times a second, so a
 * model streaming at full speed costs a bounded number of renders.
 */
export class TuiHost implements Host {
  readonly clock: TuiClock;
  /** How many snapshots were published (each is one render of the UI). */
  publishCount = 0;
  /** The task checklist as last set (shown pinned by the UI). */
  latestChecklist: UiMessage | undefined;
  private readonly transcript = new Transcript();
  private readonly displayable = new Displayable();
  private readonly subagents = new SubagentBoard();
  private readonly pending = new Map<string, PendingAsk>();
  private readonly pendingMessages = new Map<string, AskMessage>();
  private readonly listeners = new Set<() => void>();
  private readonly intervalMs: number;
  private snapshot: TranscriptSnapshot = emptySnapshot;
  private lastPublish = Number.NEGATIVE_INFINITY;
  private cancelTimer: (() => void) | undefined;

  constructor(options: TuiHostOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.rendersPerSecond === undefined ? defaultFrameMs : 1000 / options.rendersPerSecond;
  }

  onMessage(received: UiMessage): void {
    const message = this.displayable.of(received);
    // A running subagent's messages fold into its card (issue #17).
    if (this.subagents.note(message, this.clock.now())) {
      this.schedulePublish();
      return;
    }
    // A new task starts with no checklist: the last task's is not pinned over it.
    if (message.type === "say" && message.say === "task") this.latestChecklist = undefined;
    // The checklist is shown in its pinned panel (docs/context.md), not printed again at each update.
    if (message.type === "say" && message.say === "checklist") {
      this.latestChecklist = message;
      this.schedulePublish();
      return;
    }
    this.noteCommandOutput(message);
    const ownCard = this.endedLater(message);
    this.transcript.upsert(ownCard === undefined ? message : { ...(ownCard === "problems" ? withoutPreview(message) : message), id: `${message.id}:${ownCard}` }, this.clock.now());
    this.schedulePublish();
  }

  /** The last command card shown, and the commands whose output was shown (it ends with their exit status). */
  private lastCommandId: string | undefined;
  private readonly commandsWithOutput = new Set<string>();

  private noteCommandOutput(message: UiMessage): void {
    if (message.type !== "say") return;
    if (message.say === "command") this.lastCommandId = message.id;
    else if (message.say === "command_output" && this.lastCommandId !== undefined) this.commandsWithOutput.add(this.lastCommandId);
  }

  /**
   * A printed card cannot change: how a call ended, amended later (#11), gets a card of
   * its own (the suffix of its id) when it failed, when a hook blocked it, or when a
   * command ended badly without output to show it; undefined when the card is updated in place.
   */
  private endedLater(message: UiMessage): "failed" | "blocked" | "ended" | "problems" | undefined {
    if (message.type !== "say" || message.partial || !this.transcript.hasFinal(message.id)) return undefined;
    const card = cardMetaOf(message);
    if (card?.status === "error") return "failed";
    // A blocked call's card says why; the Task's amendment (status "rejected") adds nothing to show.
    if (card?.blocked !== undefined) return card.status === undefined ? "blocked" : undefined;
    if (card?.status === undefined && card?.end !== undefined && !commandSucceeded(card.end) && !this.commandsWithOutput.has(message.id)) return "ended";
    // An edit's new problems (#32), found after its card was drawn.
    if (card?.status === undefined && diagnosticsText(card?.diagnostics) !== undefined) return "problems";
    return undefined;
  }

  answerAsk(received: AskMessage, signal: AbortSignal): Promise<AskResponse> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const message = this.displayable.of(received);
    this.transcript.upsert({ ...message, partial: false }, this.clock.now());
    return new Promise<AskResponse>((resolve, reject) => {
      const onAbort = (): void => {
        this.removePending(message.id);
        this.schedulePublish();
        reject(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(message.id, {
        message,
        resolve,
        reject,
        stopListening: () => signal.removeEventListener("abort", onAbort),
      });
      this.pendingMessages.set(message.id, message);
      this.schedulePublish();
    });
  }

  /** The user answered an ask (called by the UI). Unknown or settled ids are ignored. */
  answer(id: string, response: AskResponse): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.removePending(id);
    this.transcript.recordAnswer(id, response, this.clock.now());
    pending.resolve(response);
    // The user pressed a key: show the result at once rather than at the next frame.
    this.publish();
  }

  /**
   * The ask was answered somewhere else (another client of `cairn serve`, docs/server.md): it
   * stops waiting for this user, whose `answerAsk` promise rejects, and shows that answer when
   * it is known. Unknown or settled ids are ignored.
   */
  answeredElsewhere(id: string, response: AskResponse | undefined): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.removePending(id);
    if (response !== undefined) this.transcript.recordAnswer(id, response, this.clock.now());
    pending.reject(new AnsweredElsewhereError(id));
    this.publish();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TranscriptSnapshot => this.snapshot;

  /** Publishes what arrived since the last frame now (before the UI goes away, so the last messages are drawn). */
  flush(): void {
    this.publish();
  }

  /** Stops the pending frame timer (the UI is going away). */
  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private removePending(id: string): void {
    this.pending.get(id)?.stopListening();
    this.pending.delete(id);
    this.pendingMessages.delete(id);
  }

  private schedulePublish(intervalMs = this.intervalMs): void {
    if (this.cancelTimer !== undefined) return;
    const wait = Math.max(0, this.lastPublish + intervalMs - this.clock.now());
    this.cancelTimer = this.clock.setTimer(() => {
      this.cancelTimer = undefined;
      this.publish();
    }, wait);
  }

  private publish(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.lastPublish = this.clock.now();
    this.publishCount += 1;
    this.snapshot = { ...this.transcript.snapshot(this.pendingMessages), subagents: this.subagents.running() };
    for (const listener of this.listeners) listener();
    if (this.snapshot.backlog) this.schedulePublish(Math.min(backlogFrameMs, this.intervalMs));
  }
}

/** How `answerAsk` ends for an ask another client answered. */
export class AnsweredElsewhereError extends Error {
  constructor(readonly askId: string) {
    super(`The question ${askId} was answered elsewhere.`);
    this.name = "AnsweredElsewhereError";
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("The ask was cancelled: the task was aborted.");
}
