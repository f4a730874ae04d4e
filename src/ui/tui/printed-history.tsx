/**
 * The printed history as text: what scrolls up above the live area and never
 * changes. It is written to the terminal as finished text (Ink's `write`, which
 * clears the live area, prints above it and draws it again), not laid out by
 * Ink's <Static>: Ink handles every character of its output one by one
 * (widths, a grid of styled cells), which cost the terminal UI five times the
 * CPU of a headless run on a streamed 1 MiB answer. A streamed answer's lines
 * are already wrapped and styled (markdown-format.ts); the few other items
 * (tool cards, notes) are rendered once each with Ink's `renderToString`.
 */
import { renderToString } from "ink";
import { useEffect, useLayoutEffect, useRef } from "react";
import { PrintedItem } from "./components/message-view.js";
import type { MarkdownFormatter } from "./markdown-formatter.js";
import { printedMarkdown } from "./markdown-print.js";
import type { MarkdownPrintJob } from "./markdown-print.js";
import type { PrintQueue } from "./print-queue.js";
import type { MarkdownItem, StaticItem } from "./transcript.js";

function markdownJob(item: MarkdownItem, width: number): MarkdownPrintJob {
  return { source: item.source, state: item.state, first: item.first, completion: item.say === "completion_result", width };
}

function itemText(item: StaticItem, width: number): string | undefined {
  if (item.kind === "markdown") return printedMarkdown(markdownJob(item, width));
  const text = renderToString(<PrintedItem item={item} width={width} />, { columns: width });
  return text === "" ? undefined : text;
}

function joined(parts: ReadonlyArray<string | undefined>): string {
  const shown = parts.filter((part): part is string => part !== undefined);
  return shown.length === 0 ? "" : `${shown.join("\n")}\n`;
}

/** The items as the terminal shows them, one line after another, ending with a line break; "" when none shows anything. */
export function printedText(items: readonly StaticItem[], width: number): string {
  return joined(items.map((item) => itemText(item, width)));
}

/**
 * The same text, its markdown formatted by `formatter` (a worker); the other items are
 * rendered now, in this thread (`renderToString` needs React).
 */
export async function printedTextFormattedBy(items: readonly StaticItem[], width: number, formatter: MarkdownFormatter): Promise<string> {
  const parts = items.map((item) => (item.kind === "markdown" ? formatter.format(markdownJob(item, width)) : Promise.resolve(itemText(item, width))));
  return joined(await Promise.all(parts));
}

/**
 * Writes the items added since the last render, once each. A new `generation`
 * (the terminal's width changed and the screen was cleared) prints them all again.
 * The text is made and written just after React's commit, in a microtask:
 * `renderToString` cannot run inside another render's commit. With a `queue`,
 * markdown is formatted by its worker and the text written when ready, in order.
 */
export function usePrintedHistory(items: readonly StaticItem[], width: number, generation: number, write: (text: string) => void, queue?: PrintQueue): void {
  const printed = useRef({ count: 0, generation });
  // Ink's write does nothing once the UI is unmounted (it ends before its exit resolves): later text goes to the terminal.
  useEffect(() => () => queue?.uiGone(), [queue]);
  useLayoutEffect(() => {
    const state = printed.current;
    if (state.generation !== generation) {
      state.generation = generation;
      state.count = 0;
    }
    if (items.length <= state.count) return;
    const batch = items.slice(state.count);
    state.count = items.length;
    queueMicrotask(() => {
      if (queue !== undefined) {
        queue.enqueue(printedTextFormattedBy(batch, width, queue.formatter), write, () => state.generation === generation);
        return;
      }
      const text = printedText(batch, width);
      if (text !== "") write(text);
    });
  });
}
