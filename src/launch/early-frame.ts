/**
 * The terminal UI's first frame, drawn by the launcher before the CLI bundle loads
 * (docs/tui.md, "Start-up"): the input box with its placeholder, exactly as Ink draws it
 * a moment later, so the prompt is on the screen within a few milliseconds of Node's start.
 *
 * Until the UI takes the frame over (`takeOver`, src/ui/tui/early-frame-handoff.ts), the
 * terminal is held as the UI would hold it: raw mode (keys are not echoed by the terminal in
 * the wrong place), the keys typed are kept and handed back to standard input in order when
 * the UI or anything else starts reading. Lines written to stderr meanwhile (a notice, an
 * error) are printed above the box, which is drawn again under them. Anything else gives the
 * terminal back before it is seen: a write to stdout by anyone else (a question, a picker,
 * output) erases the frame and restores the terminal, and so do Ctrl+C (then cairn stops,
 * status 130), SIGINT, SIGTERM, an uncaught error (before its trace is printed) and the exit.
 */
import { eraseLines, inputBoxLines, narrowestEarlyFrame } from "./early-frame-text.js";

/** Where the CLI bundle finds the frame (src/ui/tui/early-frame-handoff.ts). */
export const earlyFrameKey = Symbol.for("cairn.earlyFrame");

/** Begin and end of a synchronized update (the frame and its erasure are drawn whole, as Ink draws its frames). */
const beginUpdate = "\u001b[?2026h";
const endUpdate = "\u001b[?2026l";
const hideCursor = "\u001b[?25l";
/** Erase the screen, erase the scrollback, cursor home (what `clear` does). */
const clearScreenAndScrollback = "\u001b[2J\u001b[3J\u001b[H";
const showCursor = "\u001b[?25h";
/** Bracketed paste, as the UI asks for it (src/ui/tui/render.tsx): a block pasted early stays one message. */
const pasteMarks = { on: "\u001b[?2004h", off: "\u001b[?2004l" };

type Write = NodeJS.WriteStream["write"];

export interface EarlyFrame {
  /** The UI draws now: stops holding the terminal, hands the keys typed back to stdin (raw mode stays on) and returns what erases the frame; undefined if it is already gone. */
  takeOver(): string | undefined;
  /** Erases the frame and gives the terminal back as it was (raw mode off, cursor shown). */
  release(): void;
}

/** Draws the early frame on `process.stdout` and holds the terminal until `takeOver` or `release`. */
export function paintEarlyFrame(): EarlyFrame {
  const stdout = process.stdout;
  const stderr = process.stderr;
  const stdin = process.stdin;
  const typed: Buffer[] = [];
  let columns = stdout.columns;
  let held = true;
  // What this module writes goes through the writes as they were (a preload's too).
  const streams = [stdout, stderr].map((stream) => ({ stream, own: Object.prototype.hasOwnProperty.call(stream, "write"), write: (stream as unknown as { write: (...args: unknown[]) => boolean }).write }));
  const rawWrite = (text: string): void => {
    streams[0]!.write.call(stdout, text);
  };
  const frame = (): string => `${inputBoxLines(columns).join("\n")}\n`;
  // The box's three lines and the one the cursor is left on, as Ink counts a frame's lines.
  const frameLines = 4;

  const stopHolding = (): void => {
    held = false;
    for (const { stream, own, write } of streams) {
      if (own) stream.write = write;
      else delete (stream as { write?: unknown }).write;
    }
    stdin.off("data", onData);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", release);
    process.off("uncaughtExceptionMonitor", release);
    stdout.off("resize", onResize);
    // Paused unless someone else has started reading already (a question's readline, asked as it is written).
    if (stdin.listenerCount("data") === 0) stdin.pause();
    stdin.ref();
    // Read again, first, by whoever reads next (Ink, or a question's readline).
    if (typed.length > 0) stdin.unshift(Buffer.concat(typed.splice(0)));
    // Pausing process.stdin stops its reading on the next tick (Node's own listener of "pause"),
    // even if the UI has started reading meanwhile ("readable"): then it is asked to read again.
    process.nextTick(() => {
      if (stdin.listenerCount("readable") > 0) stdin.read(0);
    });
  };
  function release(): void {
    if (!held) return;
    stopHolding();
    stdin.setRawMode(false);
    rawWrite(`${eraseLines(frameLines)}${showCursor}${pasteMarks.off}`);
  }
  const takeOver = (): string | undefined => {
    if (!held) return undefined;
    stopHolding();
    return `${beginUpdate}${eraseLines(frameLines)}`;
  };
  function onData(chunk: Buffer): void {
    const interrupt = chunk.indexOf(3);
    if (interrupt < 0) {
      typed.push(chunk);
      return;
    }
    // Ctrl+C before the UI is there: stop, as the terminal's interrupt would have.
    release();
    process.exit(130);
  }
  function onSignal(signal: NodeJS.Signals): void {
    release();
    // Ended as the signal would have ended it, unless cairn already handles it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  }
  function onResize(): void {
    // A new height keeps the box's rows; a new width re-wraps what is on the screen (the box's rows
    // are no longer the four counted): the screen and its scrollback are cleared and the box drawn
    // again, as the UI does on a resize (src/ui/tui/use-resize-redraw.ts).
    if (stdout.columns === columns) return;
    columns = stdout.columns;
    if (columns < narrowestEarlyFrame) {
      release();
      return;
    }
    rawWrite(`${beginUpdate}${clearScreenAndScrollback}${frame()}${endUpdate}`);
  }
  for (const { stream, write } of streams) {
    const original = write;
    stream.write = function (this: NodeJS.WriteStream, ...args: Parameters<Write>): boolean {
      // Whole lines on stderr (a notice, an error) are printed above the box, as the UI prints
      // them above its frame; anything else (a question, a picker, output) gets the terminal back.
      // stderr elsewhere (a file, a pipe) does not touch the screen.
      if (stream === stderr && stderr.isTTY !== true) return original.apply(this, args);
      if (stream === stderr && String(args[0]).endsWith("\n")) {
        rawWrite(`${beginUpdate}${eraseLines(frameLines)}`);
        const written = original.apply(this, args);
        rawWrite(`${frame()}${endUpdate}`);
        return written;
      }
      release();
      return original.apply(this, args);
    } as Write;
  }
  stdin.setRawMode(true);
  stdin.on("data", onData);
  // Reading the keys must not keep cairn running: a start that fails ends as it did.
  stdin.unref();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("exit", release);
  // A crash's trace is printed by Node itself, after this: the box goes first.
  process.once("uncaughtExceptionMonitor", release);
  stdout.on("resize", onResize);
  rawWrite(`${beginUpdate}${hideCursor}${frame()}${endUpdate}${pasteMarks.on}`);
  const handle: EarlyFrame = { takeOver, release };
  (globalThis as Record<symbol, unknown>)[earlyFrameKey] = handle;
  return handle;
}
