import { createContext, useContext, useEffect, useState } from "react";
import { systemClock } from "../clock.js";
import type { TuiClock } from "../clock.js";

export const ClockContext = createContext<TuiClock>(systemClock);

/** The current time, re-rendering every `intervalMs` while `active`. */
export function useNow(intervalMs: number, active = true): number {
  const clock = useContext(ClockContext);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    let cancel = clock.setTimer(function tick() {
      setTick((count) => count + 1);
      cancel = clock.setTimer(tick, intervalMs);
    }, intervalMs);
    return () => cancel();
  }, [clock, intervalMs, active]);
  return clock.now();
}
