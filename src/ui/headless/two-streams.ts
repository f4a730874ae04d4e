/**
 * The two outputs of the text printer: stdout carries exactly the answer's text
 * (what `cairn run ... > answer.txt` keeps), stderr everything else: tools,
 * commands, checkpoints, notes, asks, the summary. Nothing is ever added to the
 * answer but the newline that ends each of its messages.
 *
 * On a terminal both show on one screen, so a line of stderr that arrives while
 * the answer is mid-line waits until that line ends (never inside a word, issue
 * #12); an ask, which needs an answer now, and streamed output (a command's,
 * reasoning) break the screen's line with a newline on stderr instead.
 */
import type { Writable } from "node:stream";

/** Which stream last left the screen's line open. */
type OpenLine = "answer" | "log" | undefined;

export class TwoStreams {
  readonly #answer: Writable;
  readonly #log: Writable;
  /** The answer's last byte is not a newline. */
  #answerMidLine = false;
  /** The answer message still being written (partial), if any. */
  #answerStreaming: string | undefined;
  /** The log message whose chunk left stderr mid-line. */
  #logStreaming: string | undefined;
  #screen: OpenLine;
  /** Log lines that arrived while the answer was mid-line: written once that line ends. */
  readonly #waiting: string[] = [];

  constructor(options: { answer: Writable; log: Writable }) {
    this.#answer = options.answer;
    this.#log = options.log;
  }

  /** Appends `text` to the answer message `id` (partial: more follows). */
  answerChunk(id: string, text: string): void {
    if (text === "") return;
    if (this.#answerMidLine && this.#answerStreaming !== id) {
      // Another answer message left its line open: it ends there.
      this.#writeAnswer("\n");
    }
    this.#answerStreaming = id;
    this.#breakLogLine();
    const lineEnd = this.#waiting.length > 0 ? text.indexOf("\n") : -1;
    if (lineEnd === -1) {
      this.#writeAnswer(text);
      return;
    }
    // The answer's line ends here: the lines that waited for it go right after it.
    this.#writeAnswer(text.slice(0, lineEnd + 1));
    this.#flushWaiting();
    this.#writeAnswer(text.slice(lineEnd + 1));
  }

  /** The answer message `id` is whole: its last line ends. */
  answerEnd(id: string): void {
    if (this.#answerStreaming !== undefined && this.#answerStreaming !== id) return;
    if (this.#answerMidLine) this.#writeAnswer("\n");
    this.#answerStreaming = undefined;
    this.#flushWaiting();
  }

  /** A whole line on stderr. It waits while the answer is mid-line, unless it is `urgent` (an ask). */
  logLine(text: string, options: { urgent?: boolean } = {}): void {
    if (this.#screen === "answer" && this.#answerStreaming !== undefined && options.urgent !== true) {
      this.#waiting.push(text);
      return;
    }
    this.#flushWaiting();
    this.#writeLogLine(text);
  }

  /** Appends `text` to the streamed log message `id` (a command's output, reasoning). */
  logChunk(id: string, text: string): void {
    if (text === "") return;
    if (this.#screen === "answer" || (this.#screen === "log" && this.#logStreaming !== id)) this.#newLogLine();
    this.#log.write(text);
    this.#logStreaming = text.endsWith("\n") ? undefined : id;
    this.#screen = text.endsWith("\n") ? undefined : "log";
  }

  /** The streamed log message `id` is whole: its last line ends. */
  logEnd(id: string): void {
    if (this.#logStreaming === id) this.#newLogLine();
  }

  /** The task is over: open lines end and what waited is written. */
  finish(): void {
    if (this.#answerMidLine) this.#writeAnswer("\n");
    this.#answerStreaming = undefined;
    this.#flushWaiting();
    if (this.#screen === "log") this.#newLogLine();
  }

  #writeAnswer(text: string): void {
    if (text === "") return;
    this.#answer.write(text);
    this.#answerMidLine = !text.endsWith("\n");
    this.#screen = this.#answerMidLine ? "answer" : undefined;
  }

  #writeLogLine(text: string): void {
    if (this.#screen !== undefined) this.#newLogLine();
    this.#log.write(`${text}\n`);
  }

  /** Ends the screen's open line on stderr (the answer's own bytes are left alone). */
  #newLogLine(): void {
    this.#log.write("\n");
    this.#screen = undefined;
    this.#logStreaming = undefined;
  }

  /** A log message mid-line on the screen ends its line before the answer goes on. */
  #breakLogLine(): void {
    if (this.#screen === "log") this.#newLogLine();
  }

  #flushWaiting(): void {
    if (this.#waiting.length === 0) return;
    for (const line of this.#waiting.splice(0)) this.#writeLogLine(line);
  }
}
