import type { Message } from "../llm/types.js";
import type { CompactionLogEntry } from "./contract.js";

/** What `/uncompact` needs: the conversation before the last compaction and the compacted length. */
export interface UncompactState {
  messages: readonly Message[];
  compactedLength: number;
}

/** The conversation before the compaction, followed by whatever was added after it. */
export function uncompacted(previous: UncompactState, current: readonly Message[]): Message[] {
  if (current.length >= previous.compactedLength) return [...previous.messages, ...current.slice(previous.compactedLength)];
  // Messages were cut since (a resume dropped an unanswered turn): cut the old conversation as much.
  return previous.messages.slice(0, Math.max(1, previous.messages.length - (previous.compactedLength - current.length)));
}

/**
 * A compaction of `snapshot` applied to the conversation as it is now: the compacted
 * messages, then whatever was added after the snapshot was taken. Undefined when the
 * conversation no longer starts with the snapshot (it was replaced meanwhile).
 */
export function continueCompaction(snapshot: readonly Message[], compacted: readonly Message[], current: readonly Message[]): Message[] | undefined {
  if (current.length < snapshot.length) return undefined;
  for (let index = 0; index < snapshot.length; index += 1) if (current[index] !== snapshot[index]) return undefined;
  return [...compacted, ...current.slice(snapshot.length)];
}

/**
 * Replays a compaction entry of the task log onto `history` (in place), so resume
 * continues from the compacted conversation; returns the new uncompact state.
 */
export function replayCompaction(history: Message[], previous: UncompactState | undefined, entry: CompactionLogEntry): UncompactState | undefined {
  if (entry.kind === "api_compact") {
    const before = history.slice();
    history.splice(0, history.length, ...entry.messages);
    return { messages: before, compactedLength: entry.messages.length };
  }
  if (previous === undefined) return undefined;
  history.splice(0, history.length, ...uncompacted(previous, history));
  return undefined;
}
