/**
 * Tab in the terminal UI: act ↔ plan, and when auto mode is on for the session
 * (`--permission-mode auto`, `defaultMode: "auto"`): act with auto mode → act
 * asking as configured → plan → act with auto mode again (so carrying a plan
 * out returns to auto mode).
 */
import type { Mode } from "../task/contracts/tool-executor.js";

export interface ModeState {
  mode: Mode;
  /** Auto mode's judge decides what would be asked. */
  auto: boolean;
}

export function nextMode(state: ModeState, autoAvailable: boolean): ModeState {
  if (state.mode === "plan") return { mode: "act", auto: autoAvailable };
  if (state.auto) return { mode: "act", auto: false };
  return { mode: "plan", auto: false };
}
