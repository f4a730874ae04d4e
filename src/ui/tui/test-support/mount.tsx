/** Mounts the App with ink-testing-library, a manual clock and a recording controller. */
import { render } from "ink-testing-library";
import { stripVTControlCharacters } from "node:util";
import { App } from "../app.js";
import { ClockContext } from "../components/use-clock.js";
import { TuiHost, defaultFrameMs } from "../tui-host.js";
import type { InputHistoryStore, TuiController } from "../controller.js";
import type { SlashCommandRegistry } from "../slash-commands.js";
import { FakeController, ManualClock } from "./fake-terminal.js";

export interface Mounted<C extends TuiController = FakeController> {
  clock: ManualClock;
  host: TuiHost;
  controller: C;
  /** The printed history and the last frame as a user reads them (colours removed). */
  frame(): string;
  /** The printed history and the last frame with their colour codes. */
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
  return mountUi({ ...options, clock, host: new TuiHost({ clock }), controller: options.controller ?? new FakeController() });
}

/** The App around a given host and controller (another front end's, as `cairn attach`'s), with its own slash commands if given. */
export function mountUi<C extends TuiController>(options: { clock: ManualClock; host: TuiHost; controller: C; initialTask?: string; history?: InputHistoryStore; commands?: SlashCommandRegistry }): Mounted<C> {
  const { clock, host, controller } = options;
  let printed = "";
  const writeHistory = (text: string): void => {
    printed += text;
  };
  const ui = render(
    <ClockContext.Provider value={clock}>
      <App
        controller={controller}
        host={host}
        writeHistory={writeHistory}
        {...(options.initialTask === undefined ? {} : { initialTask: options.initialTask })}
        {...(options.history === undefined ? {} : { history: options.history })}
        {...(options.commands === undefined ? {} : { commands: options.commands })}
      />
    </ClockContext.Provider>,
  );
  return {
    clock,
    host,
    controller,
    frame: () => stripVTControlCharacters(printed + (ui.lastFrame() ?? "")),
    rawFrame: () => printed + (ui.lastFrame() ?? ""),
    tick: async (milliseconds = defaultFrameMs + 10) => {
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
