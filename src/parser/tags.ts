/** Finding a value's closing tag, or its start cut by the end of the input, in place. */

/**
 * Length of the longest end of `text[from..]` that is the beginning (not all)
 * of `tag`: those characters are held back because they may still become it.
 */
export function unfinishedTagLength(text: string, from: number, tag: string): number {
  const longest = Math.min(tag.length - 1, text.length - from);
  // Tags have one '<', their first character, so only the suffix from the last '<' in reach can match.
  // This runs on every push: compare in place without allocating.
  let start = text.length - 1;
  while (start >= text.length - longest && text.charCodeAt(start) !== 60) start -= 1;
  if (start < text.length - longest) return 0;
  const length = text.length - start;
  for (let index = 1; index < length; index += 1) {
    if (text.charCodeAt(start + index) !== tag.charCodeAt(index)) return 0;
  }
  return length;
}

/**
 * Where `tag` starts in `text[from..]`: the index of its `<` when it is there
 * whole, or when the text ends inside it (fewer than `tag.length` characters
 * are left from there, and they are its beginning); -1 when neither. For the
 * short texts of a push: one pass over their `<`s, comparing in place, where a
 * substring search spent more time setting itself up than searching.
 */
export function indexOfTagOrItsStart(text: string, from: number, tag: string): number {
  let at = text.indexOf("<", from);
  while (at !== -1) {
    const length = Math.min(tag.length, text.length - at);
    let index = 1;
    while (index < length && text.charCodeAt(at + index) === tag.charCodeAt(index)) index += 1;
    if (index === length) return at;
    at = text.indexOf("<", at + 1);
  }
  return -1;
}
