import type { ContentBlock, Message } from "../llm/types.js";

/** What a picture costs in the context, roughly (providers bill ~1,000-1,600 tokens per image). */
const imageTokens = 1_600;
/** Per message: role and separators. */
const messageOverhead = 4;

type CountTokens = (text: string) => number;

let loaded: CountTokens | undefined;
let loading: Promise<CountTokens> | undefined;

/**
 * Loads gpt-tokenizer once. Building its tables blocks the process for 0.1-1 s (more on a
 * loaded machine), so it is loaded only when a task's context starts to matter (see
 * ContextManager), never at start-up; until then estimates use four characters a token.
 * cl100k_base is the smaller table; for an estimate it is as good as any.
 */
export function loadTokenizer(): Promise<CountTokens> {
  loading ??= import("gpt-tokenizer/encoding/cl100k_base").then((module) => {
    loaded = (text: string) => module.countTokens(text);
    return loaded;
  });
  return loading;
}

/** Whether the tokenizer was asked for (it may still be loading). */
export function isTokenizerRequested(): boolean {
  return loading !== undefined;
}

export function isTokenizerLoaded(): boolean {
  return loaded !== undefined;
}

/** Tokens of `text`: gpt-tokenizer's count once loaded, else a quarter of the characters. */
export function textTokens(text: string): number {
  if (text.length === 0) return 0;
  if (loaded === undefined) return Math.ceil(text.length / 4);
  return loaded(text);
}

function blockTokens(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return textTokens(block.text);
    case "image":
      return imageTokens;
    case "reasoning":
      return textTokens(block.text);
    case "tool_use":
      return textTokens(block.name) + textTokens(JSON.stringify(block.input)) + messageOverhead;
    case "tool_result":
      if (typeof block.content === "string") return textTokens(block.content) + messageOverhead;
      return block.content.reduce((sum, part) => sum + (part.type === "text" ? textTokens(part.text) : imageTokens), messageOverhead);
  }
}

/**
 * Token estimates per message, remembered per message object: a message of the history
 * never changes once added (compaction builds new ones), so each is counted once and a
 * request at turn 1,000 costs what one at turn 10 does.
 */
export class TokenEstimator {
  private readonly cache = new WeakMap<Message, number>();

  message(message: Message): number {
    const known = this.cache.get(message);
    if (known !== undefined) return known;
    const tokens = message.content.reduce((sum, block) => sum + blockTokens(block), messageOverhead);
    // Estimates made before the tokenizer loaded are rough: count them again later.
    if (loaded !== undefined) this.cache.set(message, tokens);
    return tokens;
  }

  messages(messages: readonly Message[], from = 0): number {
    let total = 0;
    for (let index = from; index < messages.length; index += 1) {
      const message = messages[index];
      if (message !== undefined) total += this.message(message);
    }
    return total;
  }

  text(text: string): number {
    return textTokens(text);
  }
}
