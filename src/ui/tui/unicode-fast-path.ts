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
 * invisible ones and the two emoji (‼ ⁉), and the symbols from U+2100 to U+2BFF
 * (letterlike, arrows, technical, box drawing, shapes, dingbats, braille) but the
 * emoji among them (both packages' answers differ for those: string-width 7 counts
 * ✔ or ™ two columns wide, 8 one) and the unassigned ones. The spinner shown while
 * the model is awaited compiled the package's emoji expressions, 30-90 ms of CPU;
 * the UI draws its own marks from this set for the same reason (✓ ● ◷, not ✔ ⏺ ⏱,
 * whose width terminals disagree on too).
 */
const standAloneBeyondAscii =
  "\\u00A0-\\u00A8\\u00AA-\\u00AC\\u00AF-\\u02FF\\u0370-\\u0377\\u037A-\\u037F\\u0384-\\u038A\\u038C\\u038E-\\u03A1\\u03A3-\\u0482\\u048A-\\u052F\\u2010-\\u2027\\u2030-\\u203B\\u203D-\\u2048\\u204A-\\u205E\\u2100-\\u2121\\u2123-\\u2138\\u213A-\\u218B\\u2190-\\u2193\\u219A-\\u21A8\\u21AB-\\u2319\\u231C-\\u2327\\u2329-\\u23CE\\u23D0-\\u23E8\\u23F4-\\u23F7\\u23FB-\\u2429\\u2440-\\u244A\\u2460-\\u24C1\\u24C3-\\u25A9\\u25AC-\\u25B5\\u25B7-\\u25BF\\u25C1-\\u25FA\\u25FF\\u2605-\\u260D\\u260F-\\u2610\\u2612-\\u2613\\u2616-\\u2617\\u2619-\\u261C\\u261E-\\u261F\\u2621\\u2624-\\u2625\\u2627-\\u2629\\u262B-\\u262D\\u2630-\\u2637\\u263B-\\u263F\\u2641\\u2643-\\u2647\\u2654-\\u265E\\u2661-\\u2662\\u2664\\u2667\\u2669-\\u267A\\u267C-\\u267D\\u2680-\\u2691\\u2698\\u269A\\u269D-\\u269F\\u26A2-\\u26A6\\u26A8-\\u26A9\\u26AC-\\u26AF\\u26B2-\\u26BC\\u26BF-\\u26C3\\u26C6-\\u26C7\\u26C9-\\u26CD\\u26D0\\u26D2\\u26D5-\\u26E8\\u26EB-\\u26EF\\u26F6\\u26FB-\\u26FC\\u26FE-\\u2701\\u2703-\\u2704\\u2706-\\u2707\\u270E\\u2710-\\u2711\\u2713\\u2715\\u2717-\\u271C\\u271E-\\u2720\\u2722-\\u2727\\u2729-\\u2732\\u2735-\\u2743\\u2745-\\u2746\\u2748-\\u274B\\u274D\\u274F-\\u2752\\u2756\\u2758-\\u2762\\u2765-\\u2794\\u2798-\\u27A0\\u27A2-\\u27AF\\u27B1-\\u27BE\\u27C0-\\u2933\\u2936-\\u2B04\\u2B08-\\u2B1A\\u2B1D-\\u2B4F\\u2B51-\\u2B54\\u2B56-\\u2B73\\u2B76-\\u2BFF";
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
