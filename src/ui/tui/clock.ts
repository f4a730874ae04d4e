/**
 * Time as the UI sees it. Injected so tests can move time by hand instead of
 * waiting (timed assertions are not allowed in unit tests).
 */
export interface TuiClock {
  /** Epoch milliseconds, the clock `ts` and `retryAt` use. */
  now(): number;
  /** Calls back once after `delayMs`; returns a function that cancels it. */
  setTimer(callback: () => void, delayMs: number): () => void;
}

export const systemClock: TuiClock = {
  now: () => Date.now(),
  setTimer: (callback, delayMs) => {
    const timer = setTimeout(callback, delayMs);
    return () => clearTimeout(timer);
  },
};
