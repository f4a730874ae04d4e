/**
 * Applies SEARCH/REPLACE blocks to a file's text. Each block replaces its
 * first match after the previous block's match (or, failing that, its first
 * match anywhere that no other block took, so blocks out of file order apply
 * as they would in order), trying in turn an exact
 * match, a match ignoring each line's surrounding whitespace, and (for blocks
 * of 3+ lines) a match on the first and last lines only. Any block that does
 * not match fails the whole edit; CRLF files keep their line endings.
 */
import type { SearchReplaceBlock } from "./parse-blocks.js";

export type MatchStrategy = "exact" | "line-trimmed" | "block-anchor" | "empty-file";

export interface AppliedEdit {
  ok: true;
  content: string;
  matches: Array<{ startLine: number; endLine: number; strategy: MatchStrategy }>;
}

export interface FailedEdit {
  ok: false;
  /** 0-based index of the block that did not apply. */
  blockIndex: number;
  /** For the model: what went wrong and the current content near the best candidate. */
  message: string;
}

export type EditResult = AppliedEdit | FailedEdit;

class LineIndex {
  readonly lines: string[];
  readonly starts: number[];
  private trimmedCache: string[] | undefined;

  constructor(readonly text: string) {
    this.lines = text.split("\n");
    if (text.endsWith("\n")) this.lines.pop();
    if (text === "") this.lines = [];
    this.starts = [];
    let offset = 0;
    for (const line of this.lines) {
      this.starts.push(offset);
      offset += line.length + 1;
    }
  }

  get trimmed(): string[] {
    this.trimmedCache ??= this.lines.map((line) => line.trim());
    return this.trimmedCache;
  }

  /** First line that starts at or after `offset`. */
  lineAtOrAfter(offset: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.starts[middle] ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  lineOf(offset: number): number {
    const next = this.lineAtOrAfter(offset + 1);
    return Math.max(0, next - 1);
  }

  endOffset(lineExclusive: number): number {
    return lineExclusive < this.lines.length ? (this.starts[lineExclusive] ?? this.text.length) : this.text.length;
  }
}

export function detectCrlf(text: string): boolean {
  const crlf = text.split("\r\n").length - 1;
  if (crlf === 0) return false;
  const lf = text.split("\n").length - 1;
  return crlf === lf;
}

interface Span {
  start: number;
  end: number;
  strategy: MatchStrategy;
}

function splitSearchLines(search: string): string[] {
  return search.slice(0, -1).split("\n");
}

function findLineMatch(index: LineIndex, searchLines: string[], fromLine: number, anchorsOnly: boolean): number {
  const trimmed = index.trimmed;
  const wanted = searchLines.map((line) => line.trim());
  const count = wanted.length;
  const first = wanted[0];
  const last = wanted[count - 1];
  for (let line = fromLine; line + count <= trimmed.length; line++) {
    if (trimmed[line] !== first) continue;
    if (anchorsOnly) {
      if (trimmed[line + count - 1] === last) return line;
      continue;
    }
    let all = true;
    for (let offset = 1; offset < count; offset++) {
      if (trimmed[line + offset] !== wanted[offset]) {
        all = false;
        break;
      }
    }
    if (all) return line;
  }
  return -1;
}

function findSpan(index: LineIndex, search: string, from: number): Span | undefined {
  const text = index.text;
  // SEARCH holds whole lines: an exact match must begin at a line start.
  let exact = text.indexOf(search, from);
  while (exact > 0 && text[exact - 1] !== "\n") exact = text.indexOf(search, exact + 1);
  if (exact >= 0) return { start: exact, end: exact + search.length, strategy: "exact" };
  // The file's last line may lack the newline every SEARCH line carries.
  const withoutNewline = search.slice(0, -1);
  const lastStart = text.length - withoutNewline.length;
  if (withoutNewline !== "" && text.endsWith(withoutNewline) && lastStart >= from && (lastStart === 0 || text[lastStart - 1] === "\n")) {
    return { start: text.length - withoutNewline.length, end: text.length, strategy: "exact" };
  }
  const searchLines = splitSearchLines(search);
  const fromLine = index.lineAtOrAfter(from);
  const strategies: Array<[MatchStrategy, boolean]> = [["line-trimmed", false]];
  // Blank anchors would match almost anywhere: only distinctive first and last lines count.
  const anchorsUsable = (searchLines[0] ?? "").trim() !== "" && (searchLines[searchLines.length - 1] ?? "").trim() !== "";
  if (searchLines.length >= 3 && anchorsUsable) strategies.push(["block-anchor", true]);
  for (const [strategy, anchorsOnly] of strategies) {
    const line = findLineMatch(index, searchLines, fromLine, anchorsOnly);
    if (line >= 0) {
      return { start: index.starts[line] ?? 0, end: index.endOffset(line + searchLines.length), strategy };
    }
  }
  return undefined;
}

export function applySearchReplace(original: string, blocks: SearchReplaceBlock[]): EditResult {
  const crlf = detectCrlf(original);
  const text = crlf ? original.replace(/\r\n/g, "\n") : original;
  const index = new LineIndex(text);
  const spans: Array<Span & { replace: string }> = [];
  let position = 0;
  for (const [blockIndex, block] of blocks.entries()) {
    if (block.search === "") {
      if (text.trim() === "" && blocks.length === 1) {
        return { ok: true, content: restoreEndings(block.replace, crlf), matches: [{ startLine: 1, endLine: 1, strategy: "empty-file" }] };
      }
      return {
        ok: false,
        blockIndex,
        message: `SEARCH/REPLACE block ${blockIndex + 1} has an empty SEARCH section. An empty SEARCH only works on an empty file; to add lines, SEARCH for the line next to them and repeat it in REPLACE together with the new lines.`,
      };
    }
    // After the previous block's match first; then, as Cline does, anywhere in the file
    // where no other block matched (models do not always give blocks in file order).
    const span = findSpan(index, block.search, position) ?? findFreeSpan(index, block.search, spans);
    if (span === undefined || overlapsAny(span, spans)) {
      return { ok: false, blockIndex, message: describeFailure({ index, block, blockIndex, position }) };
    }
    spans.push({ ...span, replace: block.replace });
    position = span.end;
  }
  // Applied in file order, whatever order the blocks came in.
  const ordered = [...spans].sort((left, right) => left.start - right.start);
  const pieces: string[] = [];
  let cursor = 0;
  for (const span of ordered) {
    let replacement = span.replace;
    // Keep the file's final line without a newline if it had none.
    if (span.end === text.length && !text.endsWith("\n") && replacement.endsWith("\n") && span.start < span.end) {
      replacement = replacement.slice(0, -1);
    }
    pieces.push(text.slice(cursor, span.start), replacement);
    cursor = span.end;
  }
  pieces.push(text.slice(cursor));
  const matches: AppliedEdit["matches"] = spans.map((span) => {
    const startLine = index.lineOf(span.start) + 1;
    return { startLine, endLine: Math.max(startLine, index.lineOf(Math.max(span.start, span.end - 1)) + 1), strategy: span.strategy };
  });
  return { ok: true, content: restoreEndings(pieces.join(""), crlf), matches };
}

function overlapsAny(span: Span, taken: readonly Span[]): boolean {
  return taken.some((other) => span.start < other.end && other.start < span.end);
}

/** The first match from the start of the file that overlaps no block matched so far. */
function findFreeSpan(index: LineIndex, search: string, taken: readonly Span[]): Span | undefined {
  let from = 0;
  while (from <= index.text.length) {
    const span = findSpan(index, search, from);
    if (span === undefined) return undefined;
    if (!overlapsAny(span, taken)) return span;
    const next = index.starts[index.lineOf(span.start) + 1];
    if (next === undefined) return undefined;
    from = next;
  }
  return undefined;
}

function restoreEndings(text: string, crlf: boolean): string {
  return crlf ? text.replace(/\r?\n/g, "\r\n") : text;
}

function describeFailure(options: { index: LineIndex; block: SearchReplaceBlock; blockIndex: number; position: number }): string {
  const { index, block, blockIndex, position } = options;
  const searchLines = splitSearchLines(block.search);
  const header = `SEARCH/REPLACE block ${blockIndex + 1} does not match the file, so nothing was written.`;
  if (position > 0 && findSpan(index, block.search, 0) !== undefined) {
    return `${header} Its SEARCH text appears only where another block of this diff already matched: blocks must not overlap.`;
  }
  const best = bestCandidate(index, searchLines);
  if (best === undefined) {
    const head = numbered(index, 0, Math.min(index.lines.length, 20));
    return `${header} No line of the SEARCH section appears in the file (${index.lines.length} lines). Its first lines are:\n${head}\nRead the file again and copy the lines exactly.`;
  }
  const from = Math.max(0, best - 3);
  const to = Math.min(index.lines.length, best + Math.min(searchLines.length, 30) + 3);
  return `${header} The closest part of the current file is near line ${best + 1}:\n${numbered(index, from, to)}\nSEARCH text must match these lines exactly (whitespace included); read the file again if it changed.`;
}

function numbered(index: LineIndex, from: number, to: number): string {
  const width = String(to).length;
  const out: string[] = [];
  for (let line = from; line < to; line++) out.push(`${String(line + 1).padStart(width)} | ${index.lines[line] ?? ""}`);
  return out.join("\n");
}

function bestCandidate(index: LineIndex, searchLines: string[]): number | undefined {
  const wanted = searchLines.slice(0, 50).map((line) => line.trim());
  const lineSet = new Set(wanted.filter((line) => line !== ""));
  const trimmed = index.trimmed;
  let bestLine: number | undefined;
  let bestScore = 0;
  for (let line = 0; line < trimmed.length; line++) {
    if (!lineSet.has(trimmed[line] ?? "")) continue;
    // Try aligning each wanted line that equals this file line.
    for (let offset = 0; offset < wanted.length; offset++) {
      if (wanted[offset] !== trimmed[line]) continue;
      const start = line - offset;
      if (start < 0) continue;
      let score = 0;
      for (let k = 0; k < wanted.length && start + k < trimmed.length; k++) if (trimmed[start + k] === wanted[k] && wanted[k] !== "") score++;
      if (score > bestScore) {
        bestScore = score;
        bestLine = start;
      }
      break;
    }
  }
  return bestLine;
}
