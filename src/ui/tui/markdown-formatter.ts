/**
 * Where the printed history's markdown is formatted. A streamed 1 MiB answer is
 * some 12,800 lines to parse, wrap and style, on the thread that also reads the
 * stream: every millisecond spent there delayed the answer. The worker
 * (markdown-worker.ts) does it beside the stream; the text is the same
 * (markdown-print.ts runs on both sides). If the worker cannot start or fails,
 * its jobs and all later ones are formatted in this thread: nothing is lost.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { printedMarkdown } from "./markdown-print.js";
import type { MarkdownPrintJob } from "./markdown-print.js";

export interface MarkdownFormatter {
  /** The job's text; jobs are answered in the order they were given. */
  format(job: MarkdownPrintJob): Promise<string>;
  /** Stops the worker; jobs still open are formatted in this thread. */
  close(): Promise<void>;
}

/**
 * The built worker, beside the CLI bundle (dist/cli/markdown-worker.cjs); undefined when
 * running from the sources (tests), where the UI formats in its own thread.
 */
export function builtWorkerFile(): string | undefined {
  const file = fileURLToPath(new URL("./markdown-worker.cjs", import.meta.url));
  return existsSync(file) ? file : undefined;
}

interface Job {
  job: MarkdownPrintJob;
  resolve: (text: string) => void;
}

export class WorkerMarkdownFormatter implements MarkdownFormatter {
  readonly #file: string;
  #worker: Worker | undefined;
  #failed = false;
  #nextId = 0;
  /** How many jobs were formatted in this thread (the worker could not start, failed, or was closed). */
  formattedHere = 0;
  /** Open jobs by id, in the order they were given (a Map keeps insertion order). */
  readonly #open = new Map<number, Job>();

  constructor(file: string) {
    this.#file = file;
  }

  format(job: MarkdownPrintJob): Promise<string> {
    const worker = this.#failed ? undefined : this.#start();
    if (worker === undefined) return Promise.resolve(this.#here(job));
    this.#nextId += 1;
    const id = this.#nextId;
    return new Promise<string>((resolve) => {
      this.#open.set(id, { job, resolve });
      worker.postMessage({ id, job });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#fail();
    if (worker !== undefined) await worker.terminate();
  }

  #start(): Worker | undefined {
    if (this.#worker !== undefined) return this.#worker;
    try {
      const worker = new Worker(this.#file);
      // The UI keeps the process alive while it runs; the worker alone never does.
      worker.unref();
      worker.on("message", (answer: { id: number; text: string }) => {
        const open = this.#open.get(answer.id);
        this.#open.delete(answer.id);
        open?.resolve(answer.text);
      });
      worker.on("error", () => this.#fail());
      worker.on("exit", () => this.#fail());
      this.#worker = worker;
      return worker;
    } catch {
      this.#failed = true;
      return undefined;
    }
  }

  /** From now on in this thread, the open jobs first, in their order. */
  #fail(): void {
    this.#failed = true;
    this.#worker = undefined;
    const open = [...this.#open.values()];
    this.#open.clear();
    for (const { job, resolve } of open) resolve(this.#here(job));
  }

  #here(job: MarkdownPrintJob): string {
    this.formattedHere += 1;
    return printedMarkdown(job);
  }
}
