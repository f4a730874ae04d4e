/**
 * The formatting worker's program (built as dist/cli/markdown-worker.cjs,
 * scripts/bundle.js): it formats the printed history's markdown lines
 * (markdown-print.ts) off the thread that reads the model's stream, one job
 * after another, each answered in the order it came.
 */
import { parentPort } from "node:worker_threads";
import { printedMarkdown } from "./markdown-print.js";
import type { MarkdownPrintJob } from "./markdown-print.js";

parentPort?.on("message", (message: { id: number; job: MarkdownPrintJob }) => {
  parentPort?.postMessage({ id: message.id, text: printedMarkdown(message.job) });
});
