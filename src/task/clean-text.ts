/**
 * SPEC P12: text shown to the user has thinking tags removed and, while the
 * block is partial, a trailing fragment of a known tag cut off (no flicker).
 */
const openingThinkingTag = /<(?:thinking|think)>\s?/g;
const closingThinkingTag = /\s?<\/(?:thinking|think)>/g;

export function cleanTextForDisplay(raw: string, partial: boolean, knownTags: ReadonlySet<string>): string {
  let text = raw.replace(openingThinkingTag, "").replace(closingThinkingTag, "");
  if (partial) {
    const lastOpen = text.lastIndexOf("<");
    if (lastOpen !== -1) {
      const fragment = text.slice(lastOpen + 1).replace(/^\//, "");
      if (!/[\s>]/.test(fragment) && [...knownTags, "thinking", "think"].some((tag) => tag.startsWith(fragment))) {
        text = text.slice(0, lastOpen);
      }
    }
  }
  return text.trimEnd();
}
