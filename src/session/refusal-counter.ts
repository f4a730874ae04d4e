import type { UiMessage } from "../task/contracts/messages.js";
import { cardMetaOf } from "../task/contracts/message-meta.js";

/**
 * Counts the actions of a run that did not run because they were refused, from
 * their cards: refused by the rules or the approval policy (`approval:
 * "refuse"`), or denied (`status: "rejected"`: an approval answered no, by a
 * person, by `--on-ask deny` or because `--yes` gives no explicit approval, or
 * a hook that blocked the call). A subagent's count in its parent's. Only
 * counted here: what is decided is the approval policy's.
 */
export class RefusalCounter {
  readonly #refused = new Set<string>();

  /** Every message the host is shown. */
  observe(message: UiMessage): void {
    if (message.partial || message.type !== "say" || (message.say !== "tool" && message.say !== "command")) return;
    const card = cardMetaOf(message);
    if (card?.approval === "refuse" || card?.status === "rejected") this.#refused.add(message.id);
  }

  get count(): number {
    return this.#refused.size;
  }
}
