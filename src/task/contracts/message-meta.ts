import type { ProviderErrorKind } from "../../llm/types.js";
import type { SayType } from "./messages.js";

/**
 * The `meta` of UI messages, typed per message kind by the code that writes
 * it (#11), so a reader (TUI, JSON, ACP) reads a declared shape instead of
 * guessing one. Kinds not listed here still carry a free-form record.
 */

/** `api_req_started`: partial while the request runs; final with the round's usage, or why it ended early. */
export type ApiRequestMeta = {
  tokensIn: number;
  tokensOut: number;
  cacheReads: number;
  cacheWrites: number;
  /** US dollars. */
  cost: number;
  cancelReason?: "user_cancelled" | "streaming_failed" | "api_error";
  error?: string;
  /** The provider's stop reason (e.g. `max_tokens`), for hosts that end a turn with it (ACP). */
  stopReason?: string;
  /** Tokens the conversation fills of the model's window, and the window (src/context). */
  contextTokens?: number;
  contextWindow?: number;
};

/** `error_retry`: an automatic retry is scheduled for `retryAt` (ms since the epoch). */
export type RetryMeta = {
  attempt: number;
  delayMs: number;
  retryAt: number;
  kind: ProviderErrorKind;
};

/** Added to a `tool` or `command` message when its tool failed (#11: visible on every surface). */
export type ToolFailureMeta = {
  status: "error";
  error: string;
};

export type SayMetaByType = {
  api_req_started: ApiRequestMeta;
  error_retry: RetryMeta;
};

/** The meta a `say` of kind `T` carries. */
export type SayMeta<T extends SayType> = T extends keyof SayMetaByType ? SayMetaByType[T] : Record<string, unknown>;
