import type { Message } from "../llm/types.js";
import { latestChecklist, openItems, parseChecklist } from "./checklist.js";
import type { ContextSettings, ModelLimits } from "./context-settings.js";
import { summaryRequestBudget } from "./context-settings.js";
import { chooseKeepFrom, keptFileText, laterUserMessages, rebuildConversation, turnsMentioning } from "./rebuild-conversation.js";
import type { KeptFile } from "./rebuild-conversation.js";
import { buildSummaryRequest, summaryOmissions } from "./summary-request.js";
import type { SummaryRequest } from "./summary-request.js";
import { supersedeFileReads } from "./supersede-reads.js";
import type { TokenEstimator } from "./token-estimate.js";
import { filesTouched } from "./tool-history.js";
import { truncateHistory } from "./truncate-history.js";

/** Share of the budget the cheap step must get under to count as enough. */
const cheapStepTarget = 0.85;

export type CompactionReason = "threshold" | "context_window" | "manual";

/** What one compaction did; `messages` is the conversation to continue from. */
export type CompactionResult =
  | { kind: "none"; why: string }
  | { kind: "reads"; messages: Message[]; replacedReads: number; tokensBefore: number; tokensAfter: number }
  | {
      kind: "summary";
      messages: Message[];
      summary: string;
      replacedReads: number;
      /** Messages of the old conversation the summary stands for. */
      summarisedMessages: number;
      /** Messages kept verbatim (the last turns and any kept for what the summary missed). */
      keptMessages: number;
      /** Messages left out of the summary request because it did not fit. */
      truncatedForSummary: number;
      /** Files re-read into the new conversation. */
      files: string[];
      /** What the summary failed to name (turns that mention it were kept verbatim). */
      missing: { files: string[]; items: string[] };
      tokensBefore: number;
      tokensAfter: number;
    };

/** Thrown by `summarize` for a summary request that does not fit; other errors end the attempt. */
export function isContextWindowError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { kind?: unknown }).kind === "context_window";
}

export interface CompactOptions {
  messages: readonly Message[];
  reason: CompactionReason;
  settings: ContextSettings;
  model: ModelLimits;
  /** Tokens the conversation may fill (see `contextBudget`). */
  budget: number;
  estimator: TokenEstimator;
  /** Sends the summary request through the task's provider (no tools) and returns its text. */
  summarize: (request: SummaryRequest) => Promise<string>;
  /** A workspace file's current content, or undefined when it cannot be read. */
  readFile: (path: string) => Promise<string | undefined>;
}

/** Turns kept verbatim: `turnsKept`, fewer when they alone would fill half the budget. */
function keepFromFor(options: CompactOptions, messages: readonly Message[]): number {
  for (let turns = Math.max(1, options.settings.turnsKept); turns >= 1; turns -= 1) {
    const keepFrom = chooseKeepFrom(messages, turns);
    if (keepFrom === 0) continue;
    if (turns === 1 || options.estimator.messages(messages, keepFrom) <= options.budget / 2) return keepFrom;
  }
  return 0;
}

/** Fewer tokens than this left for a file: it is not re-read at all (a few lines of it would not help). */
const smallestFileTokens = 100;

/**
 * The current content of the files read or changed most recently, newest first: at most
 * `filesKept` files and `fileCharsKept` characters, and at most `roomTokens` tokens, so
 * that on a small window the files do not fill the conversation again.
 */
async function rereadFiles(options: CompactOptions, paths: readonly string[], roomTokens: number): Promise<KeptFile[]> {
  const files: KeptFile[] = [];
  let room = options.settings.fileCharsKept;
  let tokensLeft = roomTokens;
  for (const path of [...paths].reverse().slice(0, Math.max(0, options.settings.filesKept))) {
    if (room <= 0 || tokensLeft < smallestFileTokens) break;
    const content = await options.readFile(path);
    if (content === undefined) {
      files.push({ path, content: undefined, truncated: false });
      continue;
    }
    const tokensOf = (kept: number): number => options.estimator.text(keptFileText({ path, content: content.slice(0, kept), truncated: kept < content.length }));
    // A file larger than what is left keeps the share of its characters that fits.
    let kept = Math.min(room, content.length);
    while (kept > 0 && tokensOf(kept) > tokensLeft) kept = Math.min(kept - 1, Math.floor((kept * tokensLeft) / tokensOf(kept)));
    if (kept <= 0) break;
    files.push({ path, content: content.slice(0, kept), truncated: kept < content.length });
    room -= kept;
    tokensLeft -= tokensOf(kept);
  }
  return files;
}

/**
 * Makes the conversation fit: first the cheap step (earlier reads of files read again
 * later become a note), then, if that is not enough (or the user asked, or the provider
 * refused the request), a summary made by the model, checked against the tool history.
 * Pure over messages: the caller commits the result.
 */
export async function compactConversation(options: CompactOptions): Promise<CompactionResult> {
  const { estimator } = options;
  const tokensBefore = estimator.messages(options.messages);
  const cheap = supersedeFileReads(options.messages);
  const afterCheap = cheap.replaced > 0 ? estimator.messages(cheap.messages) : tokensBefore;
  // The cheap step is enough only when it leaves room to work; just under the budget would compact again at once.
  if (options.reason === "threshold" && cheap.replaced > 0 && afterCheap <= options.budget * cheapStepTarget) {
    return { kind: "reads", messages: cheap.messages, replacedReads: cheap.replaced, tokensBefore, tokensAfter: afterCheap };
  }

  const messages = cheap.messages;
  const keepFrom = keepFromFor(options, messages);
  if (keepFrom < 2) {
    if (cheap.replaced > 0) return { kind: "reads", messages, replacedReads: cheap.replaced, tokensBefore, tokensAfter: afterCheap };
    return { kind: "none", why: "the conversation is too short to condense" };
  }

  const touched = filesTouched(messages);
  const checklist = latestChecklist(messages);
  const open = checklist === undefined ? [] : openItems(parseChecklist(checklist.markdown));
  const toSummarise = messages.slice(0, keepFrom);

  // The summary request must fit the window itself: drop middle turns (in pairs, keeping
  // the first exchange) until it does, and again if the provider still refuses it.
  let sent = toSummarise;
  let truncated = 0;
  const shrink = (): boolean => {
    const result = truncateHistory([...sent]);
    if (result.removed === 0) return false;
    sent = result.messages;
    truncated += result.removed;
    return true;
  };
  const limit = summaryRequestBudget(options.model);
  const requestFor = (): SummaryRequest => buildSummaryRequest({ messages: sent, editedFiles: touched.edited, openItems: open, truncated });
  const requestTokens = (request: SummaryRequest): number => estimator.text(request.systemPrompt) + estimator.messages(request.messages);
  while (requestTokens(requestFor()) > limit && shrink()) {
    // shrinking
  }
  let summary: string | undefined;
  for (let attempt = 0; summary === undefined; attempt += 1) {
    try {
      summary = (await options.summarize(requestFor())).trim();
    } catch (error) {
      if (!isContextWindowError(error) || attempt >= 4 || !shrink()) throw error;
    }
  }
  if (summary === "") throw new Error("the model returned an empty summary");

  const missing = summaryOmissions(summary, { editedFiles: touched.edited, openItems: open });
  const extraTurns = [...missing.files, ...missing.items].flatMap((needle) => turnsMentioning(messages, keepFrom, needle, 2));
  // Files read or changed in the kept turns are there already, as recent as anything.
  const inTail = new Set(filesTouched(messages.slice(keepFrom)).recent);
  const rebuild = (files: readonly KeptFile[]): Message[] =>
    rebuildConversation({
      messages,
      keepFrom,
      extraTurns,
      summary,
      // All of them, also those in the kept turns: the block is the one complete, ordered record.
      userMessages: laterUserMessages(messages),
      checklist: checklist?.markdown,
      files,
    });
  // The files may fill what is left of half the budget: the rest is room to work before the next compaction.
  const roomForFiles = Math.floor(options.budget / 2) - estimator.messages(rebuild([]));
  const files = await rereadFiles(
    options,
    touched.recent.filter((path) => !inTail.has(path)),
    roomForFiles,
  );
  const rebuilt = rebuild(files);
  return {
    kind: "summary",
    messages: rebuilt,
    summary,
    replacedReads: cheap.replaced,
    summarisedMessages: keepFrom,
    keptMessages: rebuilt.length - 1,
    truncatedForSummary: truncated,
    files: files.map((file) => file.path),
    missing,
    tokensBefore,
    tokensAfter: estimator.messages(rebuilt),
  };
}
