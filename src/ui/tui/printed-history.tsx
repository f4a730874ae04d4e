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
import pc from "picocolors";
import { useLayoutEffect, useRef } from "react";
import { PrintedItem } from "./components/message-view.js";
import { formatMarkdown } from "./markdown-format.js";
import type { StaticItem } from "./transcript.js";

const completionHeader = pc.green(pc.bold("✔ Task completed"));

function itemText(item: StaticItem, width: number): string | undefined {
  if (item.kind === "markdown") {
    const header = item.first && item.say === "completion_result" ? `${completionHeader}\n` : "";
    return `${item.first ? "\n" : ""}${header}${formatMarkdown(item.lines, width)}`;
  }
  const text = renderToString(<PrintedItem item={item} width={width} />, { columns: width });
  return text === "" ? undefined : text;
}

/** The items as the terminal shows them, one line after another, ending with a line break; "" when none shows anything. */
export function printedText(items: readonly StaticItem[], width: number): string {
  const parts: string[] = [];
  for (const item of items) {
    const text = itemText(item, width);
    if (text !== undefined) parts.push(text);
  }
  return parts.length === 0 ? "" : `${parts.join("\n")}\n`;
}

/**
 * Writes the items added since the last render, once each. A new `generation`
 * (the terminal's width changed and the screen was cleared) prints them all again.
 * The text is made and written just after React's commit, in a microtask:
 * `renderToString` cannot run inside another render's commit.
 */
export function usePrintedHistory(items: readonly StaticItem[], width: number, generation: number, write: (text: string) => void): void {
  const printed = useRef({ count: 0, generation });
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
      const text = printedText(batch, width);
      if (text !== "") write(text);
    });
  });
}
