/** Mounts the App with ink-testing-library, a manual clock and a recording controller. */
import { render } from "ink-testing-library";
import { stripVTControlCharacters } from "node:util";
import { App } from "../app.js";
import { ClockContext } from "../components/use-clock.js";
import { TuiHost } from "../tui-host.js";
import type { InputHistoryStore } from "../controller.js";
import { FakeController, ManualClock } from "./fake-terminal.js";

export interface Mounted {
  clock: ManualClock;
  host: TuiHost;
  controller: FakeController;
  /** The last frame as a user reads it (colours removed). */
  frame(): string;
  /** The last frame with its colour codes. */
  rawFrame(): string;
  /** Moves the clock (firing the render throttle) and lets React render. */
  tick(milliseconds?: number): Promise<void>;
  press(keys: string): Promise<void>;
  unmount(): void;
}

async function nextTurns(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

export function mountApp(options: { initialTask?: string; controller?: FakeController; history?: InputHistoryStore } = {}): Mounted {
  const clock = new ManualClock();
  const host = new TuiHost({ clock });
  const controller = options.controller ?? new FakeController();
  const ui = render(
    <ClockContext.Provider value={clock}>
      <App controller={controller} host={host} {...(options.initialTask === undefined ? {} : { initialTask: options.initialTask })} {...(options.history === undefined ? {} : { history: options.history })} />
    </ClockContext.Provider>,
  );
  return {
    clock,
    host,
    controller,
    frame: () => stripVTControlCharacters(ui.lastFrame() ?? ""),
    rawFrame: () => ui.lastFrame() ?? "",
    tick: async (milliseconds = 50) => {
      await nextTurns();
      clock.advance(milliseconds);
      await nextTurns();
    },
    press: async (keys: string) => {
      ui.stdin.write(keys);
      await nextTurns();
    },
    unmount: () => {
      ui.unmount();
      host.dispose();
    },
  };
}
