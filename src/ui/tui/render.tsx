import { render } from "ink";
import { App } from "./app.js";
import { writeWithoutWaiting } from "./terminal-writes.js";
import { WorkerMarkdownFormatter, builtWorkerFile } from "./markdown-formatter.js";
import { PrintQueue } from "./print-queue.js";
import { ClockContext } from "./components/use-clock.js";
import type { InputHistoryStore, TuiController } from "./controller.js";
import type { TuiHost } from "./tui-host.js";
import type { SlashCommandRegistry } from "./slash-commands.js";

export interface RenderTuiOptions {
  controller: TuiController;
  host: TuiHost;
  /** Earlier inputs for Up/Down (kept per workspace). */
  history?: InputHistoryStore;
  /** The slash commands (default: the registry features register into). */
  commands?: SlashCommandRegistry;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /**
   * Write every frame in full instead of updating the screen in place. Tests use
   * it (it works under CI=true, where Ink otherwise draws nothing interactive).
   */
  debug?: boolean;
  /** Where the printed history goes (default: written above the live area); the tests' terminal keeps it apart from the frames. */
  writeHistory?: (text: string) => void;
  /** What erases the frame the launcher drew (early-frame-handoff.ts): written in the same write as the UI's first frame, which replaces it. */
  earlyFrameErase?: string;
  /** The formatting worker's program (default: the built one beside the bundle, markdown-formatter.ts). */
  markdownWorkerFile?: string;
}

export interface TuiInstance {
  /** Resolves when the UI has gone (second Ctrl+C or `unmount`). */
  waitUntilExit(): Promise<void>;
  unmount(): void;
}

/** Starts the terminal UI. The caller owns the Task; keys reach it through `controller`. */
export function renderTui(options: RenderTuiOptions): TuiInstance {
  const terminal = options.stdout ?? process.stdout;
  const drawnInPlace = options.debug !== true && terminal.isTTY === true;
  // On a real terminal, the printed history's markdown is formatted beside the stream (markdown-formatter.ts).
  const workerFile = drawnInPlace ? (options.markdownWorkerFile ?? builtWorkerFile()) : undefined;
  const printQueue = workerFile === undefined ? undefined : new PrintQueue(new WorkerMarkdownFormatter(workerFile), (text) => terminal.write(text));
  // Ink draws its first frame within render(): the erasure and that frame leave in one write.
  const takesOver = options.earlyFrameErase !== undefined && drawnInPlace;
  if (takesOver) {
    terminal.cork();
    terminal.write(options.earlyFrameErase!);
  }
  const instance = render(
    <ClockContext.Provider value={options.host.clock}>
      <App
        controller={options.controller}
        host={options.host}
        {...(options.history === undefined ? {} : { history: options.history })}
        {...(options.commands === undefined ? {} : { commands: options.commands })}
        redrawOnResize={drawnInPlace}
        {...(options.writeHistory === undefined ? {} : { writeHistory: options.writeHistory })}
        {...(printQueue === undefined ? {} : { printQueue })}
      />
    </ClockContext.Provider>,
    {
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
      ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
      debug: options.debug ?? false,
      // Ink would draw at most 30 frames a second, so a key typed just after a frame waited up to
      // 33 ms to be drawn. The host already bounds the renders a stream causes (TuiHost), so
      // each render is drawn at once: a key is echoed by the render it causes.
      maxFps: 0,
      // Ctrl+C aborts the step first; only the second one exits (see use-keys.ts).
      exitOnCtrlC: false,
      // console output from anywhere would break the screen's line accounting: Ink prints it above the UI
      patchConsole: options.debug !== true,
    },
  );
  if (takesOver) terminal.uncork();
  // Bracketed paste: a pasted block arrives marked, so its line breaks stay in one message.
  const bracketedPaste = drawnInPlace;
  if (bracketedPaste) terminal.write("\u001b[?2004h");
  // Frames and printed lines are queued rather than waited for (terminal-writes.ts), until the UI goes.
  const writesWaitAgain = drawnInPlace ? writeWithoutWaiting(terminal) : async () => undefined;
  const restoreTerminal = async (): Promise<void> => {
    // Lines still being formatted are written below the last frame: none is lost.
    printQueue?.uiGone();
    await printQueue?.drained();
    await printQueue?.formatter.close();
    if (bracketedPaste) terminal.write("\u001b[?2004l");
    await writesWaitAgain();
  };
  const exited = instance.waitUntilExit().then(
    async () => {
      const restored = restoreTerminal();
      options.host.dispose();
      await restored;
    },
    async (error: unknown) => {
      const restored = restoreTerminal();
      options.host.dispose();
      await restored;
      throw error;
    },
  );
  return {
    waitUntilExit: async () => {
      await exited;
    },
    // The lines on their way are printed above the live area before it goes.
    unmount: () => {
      if (printQueue === undefined) instance.unmount();
      else void printQueue.drained().then(() => instance.unmount());
    },
  };
}
