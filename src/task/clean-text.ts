/**
 * SPEC P12: text shown to the user has thinking tags removed and, while the
 * block is partial, a trailing fragment of a known tag cut off (no flicker).
 */
const openingThinkingTag = /<(?:thinking|think)>\s?/g;
const closingThinkingTag = /\s?<\/(?:thinking|think)>/g;
const thinkingTags = ["thinking", "think"];

function removeThinkingTags(text: string): string {
  if (!text.includes("<")) return text;
  return text.replace(openingThinkingTag, "").replace(closingThinkingTag, "");
}

/** The partial text without a trailing fragment of a known tag; only the last few characters are looked at. */
function cutTagFragment(text: string, knownTags: ReadonlySet<string>, longestTag: number): string {
  // A fragment is "<", an optional "/", then at most a tag's length of characters without blanks or ">".
  let lastOpen = -1;
  for (let at = text.indexOf("<", text.length - longestTag - 2); at !== -1; at = text.indexOf("<", at + 1)) lastOpen = at;
  if (lastOpen === -1) return text;
  const fragment = text.slice(lastOpen + 1).replace(/^\//, "");
  if (/[\s>]/.test(fragment)) return text;
  for (const tag of knownTags) if (tag.startsWith(fragment)) return text.slice(0, lastOpen);
  for (const tag of thinkingTags) if (tag.startsWith(fragment)) return text.slice(0, lastOpen);
  return text;
}

function longestTagOf(knownTags: ReadonlySet<string>): number {
  let longest = "thinking".length;
  for (const tag of knownTags) longest = Math.max(longest, tag.length);
  return longest;
}

/** The whole text cleaned in one pass (the reference for the incremental cleaner, and final messages). */
export function cleanTextForDisplay(raw: string, partial: boolean, knownTags: ReadonlySet<string>): string {
  const text = removeThinkingTags(raw);
  return (partial ? cutTagFragment(text, knownTags, longestTagOf(knownTags)) : text).trimEnd();
}

/**
 * A copy of `text` that does not keep the string it was sliced from alive (V8
 * slices long strings by reference; the head must not hold every old version
 * of the answer).
 */
function copied(text: string): string {
  const joined = `${text}.`;
  joined.charCodeAt(0); // flattens the pair into one new string
  return joined.slice(0, -1);
}

/** A thinking tag with the blank before or after it is at most this long. */
const tagReach = "</thinking>".length + 2;

/**
 * Cleans one growing text block on every update by looking at its tail only
 * (issue 18: two regular expressions over the whole message on every update
 * made a long answer quadratic). The text before a safe point, one that no tag
 * can straddle, was cleaned before and is kept; the rest is cleaned again.
 */
export class IncrementalTextCleaner {
  readonly #knownTags: ReadonlySet<string>;
  readonly #longestTag: number;
  /** How much of the raw text was cleaned for good (the safe point), and its cleaned form. */
  #headLength = 0;
  #cleanHead = "";
  /** The first and last characters of the raw head, to notice a text that is not the same one grown. */
  #headFirst = 0;
  #headLast = 0;

  constructor(knownTags: ReadonlySet<string>) {
    this.#knownTags = knownTags;
    this.#longestTag = longestTagOf(knownTags);
  }

  clean(raw: string, partial: boolean): string {
    if (!partial) return cleanTextForDisplay(raw, false, this.#knownTags);
    if (!this.#extends(raw)) {
      this.#headLength = 0;
      this.#cleanHead = "";
    }
    const safe = this.#safePoint(raw);
    if (safe > this.#headLength) {
      this.#cleanHead += copied(removeThinkingTags(raw.slice(this.#headLength, safe)));
      this.#headLength = safe;
      this.#headFirst = raw.charCodeAt(0);
      this.#headLast = raw.charCodeAt(safe - 1);
    }
    const tail = removeThinkingTags(raw.slice(this.#headLength));
    if (tail.length < this.#longestTag + 2) return cleanTextForDisplay(this.#cleanHead + tail, true, this.#knownTags); // rare: tags removed made the tail short
    // The fragment and the trailing blanks are all in the tail: the head is not read again.
    const shown = cutTagFragment(tail, this.#knownTags, this.#longestTag).trimEnd();
    return shown.length > 0 ? this.#cleanHead + shown : this.#cleanHead.trimEnd();
  }

  /**
   * A growing block only appends while it is partial; the block's text is
   * trimmed only when it settles, and a final text is cleaned whole. Comparing
   * the whole head on every update would cost what this class saves, so two
   * characters are compared: the first and the last of the head.
   */
  #extends(raw: string): boolean {
    if (this.#headLength === 0) return true;
    return raw.length >= this.#headLength && raw.charCodeAt(0) === this.#headFirst && raw.charCodeAt(this.#headLength - 1) === this.#headLast;
  }

  /**
   * A position well before the end where no tag (with its blank) can start
   * before it and end after it: no "<" within reach on either side.
   */
  #safePoint(raw: string): number {
    let candidate = raw.length - 4 * tagReach;
    while (candidate > this.#headLength) {
      const open = raw.lastIndexOf("<", candidate + tagReach);
      if (open < candidate - tagReach) return candidate;
      candidate = open - tagReach - 1;
    }
    return this.#headLength;
  }
}
