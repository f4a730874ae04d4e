/** Helpers to compare parser output in tests. */
import type { Block } from "../types.js";

/** A deep copy, because the parser reuses its array and blocks between pushes (SPEC P6). */
export function snapshot(blocks: readonly Block[]): Block[] {
  return structuredClone([...blocks]);
}

/** The blocks without tool ids, for comparisons where ids do not matter. */
export function withoutIds(blocks: readonly Block[]): unknown[] {
  return blocks.map((block) => {
    if (block.type !== "tool_use") return { ...block };
    const { id: _id, ...rest } = block;
    return { ...rest, params: { ...rest.params } };
  });
}

/** Cuts `text` into pieces at the given indexes (sorted, within bounds). */
export function cutAt(text: string, indexes: readonly number[]): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const index of indexes) {
    pieces.push(text.slice(start, index));
    start = index;
  }
  pieces.push(text.slice(start));
  return pieces;
}
