/** How cairn manages the context window of a task (config key `context`). */
export interface ContextSettings {
  /** Off: never compact before a request (a context-window error still truncates). */
  enabled: boolean;
  /** Compact when the last request used more than this share of the window (0-1, default 0.8). */
  threshold: number;
  /** Files re-read into the conversation after a summary (most recently changed or read first). */
  filesKept: number;
  /** At most this many characters of those files in all. */
  fileCharsKept: number;
  /** Assistant turns (each with its tool results) kept verbatim after a summary. */
  turnsKept: number;
  /** Remind the model of open checklist items after this many requests without an update. */
  checklistReminderEvery: number;
}

export const defaultContextSettings: ContextSettings = {
  enabled: true,
  threshold: 0.8,
  filesKept: 5,
  fileCharsKept: 40_000,
  turnsKept: 3,
  checklistReminderEvery: 6,
};

export interface ModelLimits {
  contextWindow: number;
  maxOutputTokens: number;
}

/**
 * What a request may fill before cairn compacts: the window minus room for the answer
 * (the model's output limit, at most a quarter of the window, so small local windows
 * still leave room to work), and at most `threshold` of the window.
 */
export function contextBudget(model: ModelLimits, threshold: number): number {
  const reserve = Math.min(model.maxOutputTokens, Math.floor(model.contextWindow / 4));
  return Math.max(1, Math.min(model.contextWindow - reserve, Math.floor(model.contextWindow * threshold)));
}

/** The most a summary request may hold: the window minus room for the summary itself. */
export function summaryRequestBudget(model: ModelLimits): number {
  const reserve = Math.min(model.maxOutputTokens, Math.floor(model.contextWindow / 4));
  return Math.max(1, model.contextWindow - reserve);
}
