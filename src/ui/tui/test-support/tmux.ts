/**
 * Drives a program in a real terminal: a detached tmux session of a fixed
 * size on a private tmux server (never the user's), with keys sent the way a
 * person types them and the screen read back with `capture-pane`.
 *
 * Ink draws nothing interactive when CI=true, so the program is started with
 * `env -u CI`. Text and Enter go as separate keystrokes, as a terminal sends them.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { attachControl } from "./tmux-control.js";
import type { ControlOptions, TmuxControl } from "./tmux-control.js";

const run = promisify(execFile);

export interface TmuxOptions {
  /** The program and its arguments (no shell). */
  command: readonly string[];
  cwd?: string;
  /** Extra environment variables for the program. */
  env?: Readonly<Record<string, string>>;
  /** Variables the program must not inherit from the test's environment (besides CI). */
  unset?: readonly string[];
  /** Default 80. */
  columns?: number;
  /** Default 30. */
  rows?: number;
}

export interface TmuxSession {
  readonly name: string;
  /** Types text literally (no key names). */
  sendText(text: string): Promise<void>;
  /** Pastes text as a terminal does (bracketed when the program asked for it). */
  paste(text: string): Promise<void>;
  /** Presses named keys: "Enter", "Escape", "C-c", "Tab", "Up", "Down", "BSpace" ... */
  sendKeys(...keys: string[]): Promise<void>;
  /** Resizes the terminal, as dragging its window's corner does (the program gets SIGWINCH). */
  resize(columns: number, rows: number): Promise<void>;
  /** The visible screen, one string with a line per row. */
  capture(): Promise<string>;
  /** The screen and the lines scrolled off above it. */
  captureAll(): Promise<string>;
  /** Polls the screen until `pattern` matches; rejects with the last screen after `timeoutMs`. */
  waitFor(pattern: RegExp, options?: { timeoutMs?: number; intervalMs?: number }): Promise<string>;
  /** The pane's title, as the program (or what it printed) last set it with OSC 0/2. */
  paneTitle(): Promise<string>;
  /** The program's exit status once it has ended, else undefined. */
  exitStatus(): Promise<number | undefined>;
  /** Waits for the program to end and returns its exit status; rejects after `timeoutMs`. */
  waitForExit(options?: { timeoutMs?: number }): Promise<number>;
  /** A control-mode client on the session (tmux-control.ts): commands without a process each. */
  control(options?: ControlOptions): Promise<TmuxControl>;
  /** Ends the session and its private tmux server. Safe to call twice. */
  kill(): Promise<void>;
}

export function tmuxAvailable(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let sessionCounter = 0;

export async function startTmux(options: TmuxOptions): Promise<TmuxSession> {
  const folder = mkdtempSync(join(tmpdir(), "cairn-tmux-"));
  const socket = join(folder, "socket");
  const config = join(folder, "tmux.conf");
  const statusFile = join(folder, "exit-status");
  // No status bar (the program gets every row); keep the pane after the program
  // exits so its last screen and exit status can still be read.
  writeFileSync(config, "set-option -g status off\nset-option -g remain-on-exit on\nset-option -g history-limit 5000\n");
  sessionCounter += 1;
  const name = `cairn-test-${process.pid}-${sessionCounter}`;
  const tmux = async (...args: string[]): Promise<string> => {
    const result = await run("tmux", ["-S", socket, "-f", config, ...args], { encoding: "utf8" });
    return result.stdout;
  };
  const assignments = Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`);
  await tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    String(options.columns ?? 80),
    "-y",
    String(options.rows ?? 30),
    ...(options.cwd === undefined ? [] : ["-c", options.cwd]),
    "--",
    "env",
    ...["CI", ...(options.unset ?? [])].flatMap((name) => ["-u", name]),
    ...assignments,
    // tmux does not always collect a dead pane's status, so the shell writes it down
    "sh",
    "-c",
    '"$@"; echo $? > "$0"',
    statusFile,
    ...options.command,
  );
  let killed = false;
  const session: TmuxSession = {
    name,
    sendText: async (text) => {
      await tmux("send-keys", "-t", name, "-l", "--", text);
    },
    paste: async (text) => {
      await tmux("set-buffer", "-b", "cairn-test", "--", text);
      await tmux("paste-buffer", "-p", "-d", "-b", "cairn-test", "-t", name);
    },
    sendKeys: async (...keys) => {
      for (const key of keys) await tmux("send-keys", "-t", name, key);
    },
    resize: async (columns, rows) => {
      await tmux("resize-window", "-t", name, "-x", String(columns), "-y", String(rows));
    },
    capture: async () => tmux("capture-pane", "-p", "-t", name),
    captureAll: async () => tmux("capture-pane", "-p", "-S", "-", "-t", name),
    paneTitle: async () => (await tmux("display-message", "-p", "-t", name, "#{pane_title}")).trim(),
    waitFor: async (pattern, waitOptions = {}) => {
      const timeoutMs = waitOptions.timeoutMs ?? 20_000;
      const intervalMs = waitOptions.intervalMs ?? 50;
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const screen = await session.capture();
        if (pattern.test(screen)) return screen;
        if (Date.now() > deadline) {
          throw new Error(`The terminal never showed ${String(pattern)} within ${timeoutMs} ms. Last screen:\n${screen}`);
        }
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    exitStatus: async () => {
      let text: string;
      try {
        text = readFileSync(statusFile, "utf8").trim();
      } catch {
        return undefined;
      }
      return text === "" ? undefined : Number(text);
    },
    waitForExit: async (waitOptions = {}) => {
      const timeoutMs = waitOptions.timeoutMs ?? 20_000;
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const status = await session.exitStatus();
        if (status !== undefined) return status;
        if (Date.now() > deadline) {
          throw new Error(`The program did not exit within ${timeoutMs} ms. Last screen:\n${await session.capture()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    control: (options) => attachControl(["-S", socket, "-f", config], name, options),
    kill: async () => {
      if (killed) return;
      killed = true;
      try {
        await tmux("kill-server");
      } catch {
        // already gone
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return session;
}

/** Quits the terminal UI as a user does: Ctrl+C, which asks to press it again, and Ctrl+C; resolves with the exit status. */
export async function quitWithCtrlC(ui: TmuxSession): Promise<number> {
  await ui.sendKeys("C-c");
  await ui.waitFor(/Press Ctrl\+C/, { timeoutMs: 10_000 });
  await ui.sendKeys("C-c");
  return ui.waitForExit({ timeoutMs: 30_000 });
}
