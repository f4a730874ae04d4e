import type { Message, Provider, UsageChunk } from "../llm/types.js";
import { compactConversation } from "./compact-conversation.js";
import type { CompactionReason, CompactionResult } from "./compact-conversation.js";
import type { ContextDriver, ConversationAccess } from "./contract.js";
import { contextBudget, defaultContextSettings } from "./context-settings.js";
import type { ContextSettings } from "./context-settings.js";
import { describeCompaction } from "./describe-compaction.js";
import type { SummaryRequest } from "./summary-request.js";
import { isTokenizerLoaded, loadTokenizer, TokenEstimator } from "./token-estimate.js";
import { truncateHistory } from "./truncate-history.js";
import type { UncompactState } from "./compaction-log.js";
import { continueCompaction, uncompacted } from "./compaction-log.js";

export interface ContextManagerOptions {
  provider: Provider;
  settings?: ContextSettings;
  /** A workspace file's current content (path as the model gave it), undefined if unreadable. */
  readFile: (path: string) => Promise<string | undefined>;
  /** A resumed task's last compaction, so `/uncompact` works after a resume. */
  uncompact?: UncompactState;
  /**
   * What every request carries besides the conversation (the system prompt with its
   * rules, tools and MCP section): counted in the estimate, so a provider that reports
   * no usage still compacts in time.
   */
  requestOverhead?: () => string;
  /** Runs before each compaction (the PreCompact hooks, #15). */
  beforeCompaction?: (trigger: "auto" | "manual") => Promise<void>;
}

/** What `/compact` or `/uncompact` did; the messages about it were already shown, except for a deferral. */
export type ManualOutcome = { done: true; text: string } | { done: false; text: string; deferred?: true };

/**
 * Context management of one task: accounting (provider usage, else gpt-tokenizer
 * estimates), compaction before a request when the budget is spent, after a
 * context-window error, or when the user asks; and uncompact.
 */
export class ContextManager implements ContextDriver {
  readonly settings: ContextSettings;
  private readonly estimator = new TokenEstimator();
  private conversation: ConversationAccess | undefined;
  private previous: UncompactState | undefined;
  private compactionRequested = false;
  /** History length and estimate of the last request sent. */
  private sentLength = 0;
  private sentEstimate = 0;
  /** The conversation was replaced since the last request: the provider's count is stale. */
  private stale = true;
  private running: Promise<unknown> | undefined;
  /** Running estimate of the conversation: messages are only appended between replacements. */
  /** What the summary requests of the current compaction cost (shown in its `condense` message). */
  private summaryUsage = { requests: 0, tokensIn: 0, tokensOut: 0, cost: 0 };
  private counted = { messages: undefined as readonly Message[] | undefined, length: 0, tokens: 0, exact: false };

  constructor(private readonly options: ContextManagerOptions) {
    this.settings = options.settings ?? defaultContextSettings;
    this.previous = options.uncompact;
  }

  get budget(): number {
    return contextBudget(this.options.provider.model, this.settings.threshold);
  }

  attach(conversation: ConversationAccess): void {
    this.conversation = conversation;
  }

  /**
   * Tokens the conversation fills now: the provider's count of the last request plus
   * estimates of what came after, or the estimate of the whole conversation when that is
   * larger (a provider that reports late, too little or nothing). Estimates are cached per
   * message, so this stays cheap at any turn.
   */
  tokensUsed(): number {
    const conversation = this.conversation;
    if (conversation === undefined) return 0;
    const messages = conversation.messages();
    const estimate = this.estimateAll(messages) + this.overheadTokens();
    const reported = conversation.lastContextTokens();
    if (this.stale || reported === 0 || this.sentLength > messages.length) return estimate;
    const from = messages[this.sentLength]?.role === "assistant" ? this.sentLength + 1 : this.sentLength;
    return Math.max(estimate, reported + this.estimator.messages(messages, from));
  }

  private overhead = { text: "", tokens: 0 };

  /** Tokens of the request's fixed part, estimated again only when it changed. */
  private overheadTokens(): number {
    const text = this.options.requestOverhead?.() ?? "";
    if (text !== this.overhead.text) this.overhead = { text, tokens: this.estimator.text(text) };
    return this.overhead.tokens;
  }

  requestMeta(): { contextTokens: number; contextWindow: number } {
    const reported = this.conversation?.lastContextTokens() ?? 0;
    return { contextTokens: reported > 0 ? reported : this.sentEstimate, contextWindow: this.options.provider.model.contextWindow };
  }

  async beforeRequest(): Promise<void> {
    const conversation = this.required();
    if (this.compactionRequested) {
      this.compactionRequested = false;
      await this.compactNow("manual");
    } else if (this.settings.enabled && this.tokensUsed() > this.budget) {
      await this.compactNow("threshold");
    }
    this.noteSent(conversation.messages());
    // The tokenizer is worth loading once the context starts to matter, and only here: building
    // its tables blocks the thread for 0.1 s or more, which a status line drawn while an answer
    // streams (tokensUsed) would take from the stream.
    if (!isTokenizerLoaded() && this.sentEstimate > this.budget / 2) void loadTokenizer().catch(() => undefined);
  }

  async afterContextWindowError(): Promise<boolean> {
    const conversation = this.required();
    const done = await this.compactNow("context_window");
    if (!done) {
      // Nothing could be summarised: fall back to dropping the oldest turns.
      const applied: { before?: Message[]; length: number; removed: number } = { length: 0, removed: 0 };
      await conversation.replace((current) => {
        const result = truncateHistory(current.slice());
        if (result.removed === 0) return undefined;
        Object.assign(applied, { before: current.slice(), length: result.messages.length, removed: result.removed });
        return { messages: result.messages, entry: { kind: "api_compact", messages: result.messages, reason: "context_window" } };
      });
      if (applied.before === undefined) return false;
      this.previous = { messages: applied.before, compactedLength: applied.length };
      this.stale = true;
      conversation.say("warning", `The request did not fit the context window; ${applied.removed} older messages were dropped.`);
    }
    this.noteSent(conversation.messages());
    return true;
  }

  /** `/compact` while a task runs: compacts before its next request. */
  requestCompaction(): void {
    this.compactionRequested = true;
  }

  /**
   * `/compact` from anywhere: at once between requests, else before the next request
   * (a task never has two requests in flight, SPEC T1).
   */
  async compactWhenPossible(): Promise<ManualOutcome> {
    if (this.conversation?.requestInFlight?.() === true) {
      this.requestCompaction();
      return { done: false, deferred: true, text: "The conversation will be condensed before the next request." };
    }
    return this.compact();
  }

  /** `/compact` between requests: compacts at once. */
  async compact(): Promise<ManualOutcome> {
    const done = await this.compactNow("manual");
    return done ? { done, text: "The conversation was condensed." } : { done, text: "Nothing was condensed." };
  }

  /** `/uncompact`: the conversation as it was before the last compaction, plus what came after it. */
  async uncompact(): Promise<ManualOutcome> {
    const conversation = this.required();
    if (this.previous === undefined) {
      const text = "There is no compaction to undo.";
      conversation.say("info", text);
      return { done: false, text };
    }
    const previous = this.previous;
    let restored: Message[] = [];
    await conversation.replace((current) => {
      restored = uncompacted(previous, current);
      return { messages: restored, entry: { kind: "api_uncompact", length: restored.length } };
    });
    this.previous = undefined;
    this.stale = true;
    const text = `Restored the conversation as it was before the last compaction (${restored.length} messages). The next request may compact it again.`;
    conversation.say("info", text);
    return { done: true, text };
  }

  private required(): ConversationAccess {
    if (this.conversation === undefined) throw new Error("the context manager is not attached to a task");
    return this.conversation;
  }

  private noteSent(messages: readonly Message[]): void {
    this.sentLength = messages.length;
    this.sentEstimate = this.estimateAll(messages);
    this.stale = false;
  }

  /**
   * The estimate of the whole conversation, counting only the messages added since the
   * last call: the cost of accounting does not grow with the length of the task.
   */
  private estimateAll(messages: readonly Message[]): number {
    const counted = this.counted;
    const exact = isTokenizerLoaded();
    if (counted.messages !== messages || messages.length < counted.length || this.stale || counted.exact !== exact) {
      counted.messages = messages;
      counted.length = 0;
      counted.tokens = 0;
      counted.exact = exact;
    }
    counted.tokens += this.estimator.messages(messages, counted.length);
    counted.length = messages.length;
    return counted.tokens;
  }

  /** One compaction at a time; returns whether the conversation changed. */
  private async compactNow(reason: CompactionReason): Promise<boolean> {
    while (this.running) await this.running.catch(() => undefined);
    const work = this.runCompaction(reason);
    this.running = work;
    try {
      return await work;
    } finally {
      this.running = undefined;
    }
  }

  private async runCompaction(reason: CompactionReason): Promise<boolean> {
    const conversation = this.required();
    await this.options.beforeCompaction?.(reason === "manual" ? "manual" : "auto");
    await loadTokenizer().catch(() => undefined);
    const before = conversation.messages().slice();
    this.summaryUsage = { requests: 0, tokensIn: 0, tokensOut: 0, cost: 0 };
    let result: CompactionResult;
    try {
      result = await compactConversation({
        messages: before,
        reason,
        settings: this.settings,
        model: this.options.provider.model,
        // The summary and kept turns must leave room for the system prompt too.
        budget: Math.max(1, this.budget - this.overheadTokens()),
        estimator: this.estimator,
        summarize: (request) => this.summarize(request),
        readFile: this.options.readFile,
      });
    } catch (error) {
      if (conversation.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      conversation.say("warning", `Could not condense the conversation: ${message}`);
      return false;
    }
    if (result.kind === "none") {
      if (reason === "manual") conversation.say("info", `Nothing to condense: ${result.why}.`);
      return false;
    }
    // The task may have gone on while the summary was written (`/compact` between two rounds):
    // the compaction applies to the conversation as it is then, keeping what came after `before`.
    const compacted = result.messages;
    const applied: { before?: Message[]; length: number } = { length: 0 };
    await conversation.replace((current) => {
      const messages = continueCompaction(before, compacted, current);
      if (messages === undefined) return undefined;
      applied.before = current.slice();
      applied.length = messages.length;
      return { messages, entry: { kind: "api_compact", messages, reason, ...(result.kind === "summary" ? { summary: result.summary } : {}) } };
    });
    if (applied.before === undefined) {
      conversation.say("warning", "The conversation changed while it was being condensed; it was left as it was.");
      return false;
    }
    this.previous = { messages: applied.before, compactedLength: applied.length };
    this.stale = true;
    const described = describeCompaction(result, reason);
    conversation.say("condense", described.text, { ...described.meta, summaryRequests: { ...this.summaryUsage } });
    if (result.kind === "summary" && (result.missing.files.length > 0 || result.missing.items.length > 0)) {
      const named = [...result.missing.files, ...result.missing.items.map((item) => `"${item}"`)].join(", ");
      conversation.say("warning", `The summary did not mention ${named}; the turns that mention them were kept verbatim.`);
    }
    return true;
  }

  /** The summary request: the same provider, no tools; the text of its answer. */
  private async summarize(request: SummaryRequest): Promise<string> {
    const conversation = this.required();
    const send = async (addUsage: (chunk: UsageChunk) => void): Promise<string> => {
      let text = "";
      this.summaryUsage.requests += 1;
      const stream = this.options.provider.createMessage({ systemPrompt: request.systemPrompt, messages: request.messages, signal: conversation.signal });
      for await (const chunk of stream) {
        if (chunk.type === "text") text += chunk.text;
        if (chunk.type === "usage") {
          this.summaryUsage.tokensIn += chunk.inputTokens + (chunk.cacheReadTokens ?? 0) + (chunk.cacheWriteTokens ?? 0);
          this.summaryUsage.tokensOut += chunk.outputTokens;
          this.summaryUsage.cost += chunk.cost ?? 0;
          addUsage(chunk);
        }
      }
      return text;
    };
    return conversation.summaryRequest ? conversation.summaryRequest(send) : send(() => undefined);
  }
}
