/**
 * The SDK's events: the same objects as the lines of `cairn run --json`
 * (format 2, docs/json-events.md, schema docs/json-events.schema.json). A
 * message's first event carries its whole `text`; later partial events carry
 * only `delta`; its last event (partial false) carries the whole text again.
 * `JsonEventReader` folds them back into messages.
 */
import type { AskType, SayType } from "../task/contracts/messages.js";
import type { RunSummary } from "../session/run-summary.js";

interface MessageFields {
  v: 2;
  id: string;
  /** Set on a subagent's messages. */
  subagentId?: string;
  /** Typed per kind in src/task/contracts/message-meta.ts; the JSON here is exactly those objects. */
  meta?: Record<string, unknown>;
}

/** A message's whole state: its first event, its last (partial false), or a partial one whose text replaces what was sent. */
export type MessageEvent = MessageFields & { text: string; partial: boolean; ts: number; taskId: string } & ({ type: "say"; say: SayType } | { type: "ask"; ask: AskType });

/** Text appended to a partial message since its last event. */
export type DeltaEvent = MessageFields & { delta: string; partial: true } & ({ type: "say"; say: SayType } | { type: "ask"; ask: AskType });

/** An ask: the task waits for an answer (`canUseTool`, `onAsk`, or `task.answer(id, ...)`). */
export type AskEvent = Extract<MessageEvent, { type: "ask" }>;

/** The last event of a run: how it ended, with the whole task's totals. */
export type ResultEvent = { v: 2; type: "result" } & RunSummary;

export type CairnEvent = MessageEvent | DeltaEvent | ResultEvent;

export function isDelta(event: CairnEvent): event is DeltaEvent {
  return "delta" in event;
}
