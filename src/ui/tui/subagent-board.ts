/**
 * Running subagents in the terminal UI (issue #17): each is one card (its
 * current tool, tokens, elapsed time) instead of its every message in the
 * transcript. A child's asks still go to the transcript (they need an answer);
 * its other messages are folded into its card (`cairn show CHILD-ID` has them
 * all). The card goes when the parent reports the child's end.
 */
import { cardMetaOf, isToolMeta, metaOf, pathTools } from "../../task/contracts/message-meta.js";
import type { UiMessage } from "../../task/contracts/messages.js";

export interface SubagentCard {
  subagentId: string;
  since: number;
  /** What it is doing now: the last tool or command it started. */
  current: string | undefined;
  tokens: number;
  messages: number;
  /** Its latest folded messages (shown when the cards are expanded), by message id. */
  recent: Array<{ id: string; text: string }>;
}

/** How many folded messages an expanded card shows. */
const recentCount = 5;

export class SubagentBoard {
  private readonly cards = new Map<string, SubagentCard>();
  /** Tokens per request message id, so an updated request is counted once. */
  private readonly requestTokens = new Map<string, number>();

  /** Takes note of a message; true when it is folded into a card (not shown in the transcript). */
  note(message: UiMessage, now: number): boolean {
    if (message.subagentId === undefined) {
      const info = metaOf(message, "info");
      if (info !== undefined && "subagentReport" in info) this.cards.delete(info.subagentReport.subagentId);
      return false;
    }
    const id = message.subagentId;
    let card = this.cards.get(id);
    if (card === undefined) {
      card = { subagentId: id, since: now, current: undefined, tokens: 0, messages: 0, recent: [] };
      this.cards.set(id, card);
    }
    card.messages += 1;
    if (message.type === "ask") return false;
    if (message.say === "api_req_started") {
      const usage = metaOf(message, "api_req_started");
      this.requestTokens.set(message.id, (usage?.tokensIn ?? 0) + (usage?.tokensOut ?? 0));
      card.tokens = [...this.requestTokens.entries()].filter(([key]) => key.startsWith(`${id}:`)).reduce((sum, [, tokens]) => sum + tokens, 0);
    }
    if (message.say !== "api_req_started" && message.text.trim() !== "") {
      const line = `${message.say}: ${message.text.trim().split("\n")[0] ?? ""}`;
      const known = card.recent.find((entry) => entry.id === message.id);
      if (known !== undefined) known.text = line;
      else card.recent = [...card.recent, { id: message.id, text: line }].slice(-recentCount);
    }
    if (message.say === "tool" || message.say === "command") {
      const meta = cardMetaOf(message);
      const detail = isToolMeta(meta, ...pathTools) ? meta.path : isToolMeta(meta, "execute_command") ? meta.command : undefined;
      card.current = `${meta?.tool ?? message.say}${detail ? ` ${detail}` : ""}`;
    }
    return true;
  }

  running(): SubagentCard[] {
    return [...this.cards.values()].map((card) => ({ ...card, recent: [...card.recent] }));
  }
}
