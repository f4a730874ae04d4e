/**
 * Fast paths in front of the Unicode work of the packages Ink draws with
 * (scripts/bundle.js puts them there in the CLI bundle). Their first use cost
 * about 150 ms of every start of the terminal UI: each `Intl.Segmenter` loads
 * ICU's break rules when it is first used, and the first string that is not
 * plain ASCII compiled regular expressions of whole Unicode properties
 * (`\p{RGI_Emoji}` with the `v` flag). The first frame measures and tokenizes a
 * few such strings ("›", "─"), so every start paid it.
 *
 * Text whose characters each stand alone (each is a grapheme of its own and has
 * one width) needs none of it: its width is the sum of its characters' East
 * Asian widths and its graphemes are its characters, which is what the packages
 * and `Intl.Segmenter` answer for it (unicode-fast-path.test.ts compares them on
 * random strings). Anything else (emoji, combining marks, joiners, CR LF, format
 * characters, CJK, Hangul) goes to the package or to ICU, loaded on first need.
 */
import { eastAsianWidth } from "get-east-asian-width";

export interface StringWidthOptions {
  readonly ambiguousIsNarrow?: boolean;
  readonly countAnsiEscapeCodes?: boolean;
}

export type StringWidth = (text: string, options?: StringWidthOptions) => number;

/** SGR and other CSI sequences, and OSC 8 links: what the package strips before measuring (strip-ansi's pattern does more; anything else falls through). */
const simpleEscapes = /\u001B\[[0-9;]*[A-Za-z]|\u001B\]8;[^\u0007\u001B]*(?:\u0007|\u001B\\)/g;

/**
 * Characters that are a grapheme of their own and are neither emoji, marks nor
 * format characters: printable ASCII, Latin-1 and Latin Extended (no soft hyphen,
 * no © or ®, which are emoji),
 * Greek, Cyrillic (no combining marks), general punctuation without the
 * invisible ones and the two emoji (‼ ⁉), arrows without the emoji ones, box
 * drawing, block elements and geometric shapes without the emoji ones, and braille
 * patterns (the spinner shown while the model is awaited: its first frame alone
 * compiled the package's emoji expressions, 30-90 ms of CPU).
 */
const standAloneBeyondAscii =
  "\\u00A0-\\u00A8\\u00AA-\\u00AC\\u00AF-\\u02FF\\u0370-\\u0377\\u037A-\\u037F\\u0384-\\u038A\\u038C\\u038E-\\u03A1\\u03A3-\\u0482\\u048A-\\u052F\\u2010-\\u2027\\u2030-\\u203B\\u203D-\\u2048\\u204A-\\u205E\\u2190-\\u2193\\u219A-\\u21A8\\u21AB-\\u21FF\\u2500-\\u25A9\\u25AC-\\u25B5\\u25B7-\\u25BF\\u25C1-\\u25FA\\u2800-\\u28FF";
const standAlone = new RegExp(`^[\\u0020-\\u007E${standAloneBeyondAscii}]*$`);

const printableAscii = /^[\u0020-\u007E]*$/;

/** The stand-alone characters and the C0 controls but CR (CR LF is one grapheme): each code unit a grapheme of its own. */
const singleUnitGraphemes = new RegExp(`^[\\u0000-\\u000C\\u000E-\\u007E${standAloneBeyondAscii}]*$`);

let segmenter: Intl.Segmenter | undefined;

/** What `new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)` answers: its segments, and the one containing an index. */
export function graphemeSegments(text: string): Intl.Segments {
  if (!singleUnitGraphemes.test(text)) {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
    return segmenter.segment(text);
  }
  const at = (index: number): Intl.SegmentData => ({ segment: text[index]!, index, input: text });
  return {
    containing: (index = 0) => {
      const position = Math.trunc(Number(index));
      return position >= 0 && position < text.length ? at(position) : undefined;
    },
    *[Symbol.iterator](): Generator<Intl.SegmentData, undefined> {
      for (let index = 0; index < text.length; index += 1) yield at(index);
      return undefined;
    },
  };
}

/** `load` is called once, when a string needs the package. */
export function withFastPath(load: () => StringWidth): StringWidth {
  let full: StringWidth | undefined;
  return (text, options = {}) => {
    if (typeof text !== "string" || text.length === 0) return 0;
    let visible = text;
    if (options.countAnsiEscapeCodes !== true && (text.includes("\u001B") || text.includes("\u009B"))) {
      visible = text.replace(simpleEscapes, "");
    }
    if (printableAscii.test(visible)) return visible.length;
    if (standAlone.test(visible)) {
      const ambiguousAsWide = options.ambiguousIsNarrow === false;
      let width = 0;
      for (let index = 0; index < visible.length; index += 1) width += eastAsianWidth(visible.charCodeAt(index), { ambiguousAsWide });
      return width;
    }
    full ??= load();
    return full(text, options);
  };
}
