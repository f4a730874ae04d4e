/**
 * An in-memory terminal for rendering the real `renderTui` in tests, with a
 * chosen size (ink-testing-library's is fixed at 100 columns) and without
 * keeping every frame (a 1 MB answer would otherwise keep hundreds of copies).
 */
import { EventEmitter } from "node:events";
import { stripVTControlCharacters } from "node:util";
import type { TuiController, TuiMode, TuiStatus } from "../controller.js";
import type { TuiClock } from "../clock.js";
import { renderTui } from "../render.js";
import type { TuiInstance } from "../render.js";
import type { TuiHost } from "../tui-host.js";

export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  frameCount = 0;
  private last = "";
  /** Widest line seen in any frame, in columns (ANSI removed). */
  widestLine = 0;
  widestText = "";

  constructor(
    public columns: number,
    public rows: number,
    /** Measuring every line of every frame is slow for megabytes of output. */
    private readonly measure = true,
  ) {
    super();
  }

  /** The printed history (above the frames, written once), as a terminal keeps it in its scrollback. */
  private history = "";

  write = (frame: string): boolean => {
    this.frameCount += 1;
    this.last = frame;
    this.measureLines(frame);
    return true;
  };

  writeHistory = (text: string): void => {
    this.history += text;
    this.measureLines(text);
  };

  private measureLines(text: string): void {
    if (!this.measure) return;
    for (const line of stripVTControlCharacters(text).split("\n")) {
      const width = [...line].length;
      if (width > this.widestLine) {
        this.widestLine = width;
        this.widestText = line;
      }
    }
  }

  /** The printed history and the last frame, colours kept. */
  rawFrame(): string {
    return this.history + this.last;
  }

  /** The last frame alone (the live area, redrawn in place), as a user reads it. */
  liveFrame(): string {
    return stripVTControlCharacters(this.last);
  }

  /** The printed history and the last frame, as a user reads them. */
  frame(): string {
    return stripVTControlCharacters(this.history + this.last);
  }
}

export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;

  write(data: string): void {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  }

  read = (): string | null => {
    const data = this.data;
    this.data = null;
    return data;
  };

  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** A clock that moves only when the test says so. */
export class ManualClock implements TuiClock {
  private time: number;
  private timers: Array<{ due: number; callback: () => void; id: number }> = [];
  private nextId = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now = (): number => this.time;

  setTimer = (callback: () => void, delayMs: number): (() => void) => {
    const id = this.nextId++;
    this.timers.push({ due: this.time + delayMs, callback, id });
    return () => {
      this.timers = this.timers.filter((timer) => timer.id !== id);
    };
  };

  /** Moves time forward, firing every timer that falls due on the way, in order. */
  advance(milliseconds: number): void {
    const target = this.time + milliseconds;
    while (true) {
      const next = this.timers.filter((timer) => timer.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (next === undefined) break;
      this.timers = this.timers.filter((timer) => timer.id !== next.id);
      this.time = Math.max(this.time, next.due);
      next.callback();
    }
    this.time = target;
  }
}

export class FakeController implements TuiController {
  readonly submitted: string[] = [];
  aborts = 0;
  exits = 0;
  current: TuiStatus = {
    model: "claude-sonnet-4-5",
    mode: "act",
    tokensUsed: 12_345,
    contextWindow: 200_000,
    cost: 0.0123,
    busy: true,
  };

  submit(text: string): void {
    this.submitted.push(text);
  }
  abort(): void {
    this.aborts += 1;
  }
  exit(): void {
    this.exits += 1;
  }
  toggleMode(): TuiMode {
    this.current = { ...this.current, mode: this.current.mode === "act" ? "plan" : "act" };
    return this.current.mode;
  }
  status(): TuiStatus {
    return this.current;
  }
}

export interface FakeTerminal {
  stdout: FakeStdout;
  stdin: FakeStdin;
  instance: TuiInstance;
  /** Sends keys, then lets Ink's input handling (which defers a lone Esc) run. */
  press(keys: string): Promise<void>;
  /** Lets React finish the renders already scheduled (it renders on a microtask). */
  settle(): Promise<void>;
}

async function nextTurns(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

export function startFakeTerminal(options: { controller: TuiController; host: TuiHost; columns?: number; rows?: number; initialTask?: string; measureWidth?: boolean }): FakeTerminal {
  const stdout = new FakeStdout(options.columns ?? 80, options.rows ?? 30, options.measureWidth ?? true);
  const stdin = new FakeStdin();
  const instance = renderTui({
    controller: options.controller,
    host: options.host,
    ...(options.initialTask === undefined ? {} : { initialTask: options.initialTask }),
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: new FakeStdout(80, 30) as unknown as NodeJS.WriteStream,
    debug: true,
    writeHistory: stdout.writeHistory,
  });
  return {
    stdout,
    stdin,
    instance,
    press: async (keys: string) => {
      stdin.write(keys);
      await nextTurns();
    },
    settle: nextTurns,
  };
}
