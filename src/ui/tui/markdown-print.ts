/**
 * A streamed answer's lines as the printed history shows them: parsed
 * (markdown.ts) and formatted (markdown-format.ts) into finished terminal rows.
 * The same function runs in the UI's thread or in the formatting worker
 * (markdown-worker.ts), so both print the same text.
 */
import pc from "picocolors";
import { parseMarkdownLines } from "./markdown.js";
import type { MarkdownState } from "./markdown.js";
import { formatMarkdown } from "./markdown-format.js";

/** Lines of one streamed message to print: their source (one string: one copy to the worker) and the state they start in. */
export interface MarkdownPrintJob {
  source: string;
  state: MarkdownState;
  /** The message's first lines (a blank line before them; a completion's header). */
  first: boolean;
  completion: boolean;
  width: number;
}

const completionHeader = pc.green(pc.bold("✓ Task completed"));

/** The job's rows, joined by newlines (no final one). */
export function printedMarkdown(job: MarkdownPrintJob): string {
  const header = job.first && job.completion ? `${completionHeader}\n` : "";
  const { lines } = parseMarkdownLines(job.source.split("\n"), job.state);
  return `${job.first ? "\n" : ""}${header}${formatMarkdown(lines, job.width)}`;
}
