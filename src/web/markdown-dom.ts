/**
 * Draws a streaming message as markdown into one element, appending: lines
 * that completed since the last update become elements once and are never
 * touched again; only the unfinished last line (plain text) is rewritten. No
 * HTML is parsed: text goes in as text, so the model cannot inject markup.
 *
 * Blocks go into chunks of at most `chunkBlocks` blocks or about
 * `chunkChars` characters; a new block starts a new chunk when the open one is
 * full, and a block that outgrows its chunk goes on in the next
 * (`cutOpenBlock`). Every chunk has `content-visibility: auto`, so
 * the browser styles, lays out and paints only the chunks near the screen:
 * a frame that adds a few screens of text at once (a burst while the page
 * follows the end) lays out the last of them only, and a long answer does not
 * cost every frame the layout of all of it. A chunk the browser has not drawn
 * yet counts as its estimated height (`measure`) until it is drawn.
 *
 * Lines are parsed and added for at most `frameBudgetMs` of script per frame;
 * the rest wait for the next frames (the browser lays out and paints what was
 * added in between), so a burst of text never holds the page for long. The
 * unfinished last line shows once every line before it is drawn. A frame that
 * adds lines says so (`md-grow`, bubbling) so the page can keep the end in view.
 */
import type { MarkdownLine, Span } from "../ui/tui/markdown.js";
import { MarkdownStream } from "./markdown-stream.js";

function spanElements(spans: readonly Span[]): Node[] {
  return spans.map((span) => {
    let node: Node = document.createTextNode(span.text);
    const wrap = (tag: string): void => {
      const element = document.createElement(tag);
      element.append(node);
      node = element;
    };
    if (span.code) wrap("code");
    if (span.bold) wrap("strong");
    if (span.italic) wrap("em");
    if (span.link) wrap("u");
    return node;
  });
}

const chunkBlocks = 32;
const chunkChars = 3000;
/** A rough line of text: its height in pixels and how many characters fit in it (the estimate only sizes the scroll bar). */
const lineHeight = 22.5;
const lineChars = 90;
/** Space between blocks (0.6rem). */
const blockGap = 9;

/** A line's characters and how high it will probably be drawn. */
function measure(line: MarkdownLine): { chars: number; height: number } {
  if (line.kind === "blank" || line.kind === "fence-close") return { chars: 0, height: 0 };
  if (line.kind === "code") return { chars: line.text.length, height: lineHeight };
  if (line.kind === "fence-open" || line.kind === "rule") return { chars: 0, height: lineHeight };
  const chars = line.spans.reduce((sum, span) => sum + span.text.length, 0);
  return { chars, height: Math.max(1, Math.ceil(chars / lineChars)) * lineHeight };
}

/**
 * Script per frame, in steps of a few lines. What a frame adds is what its layout costs: with 1 ms and
 * 6 lines the heaviest frame of a 1 MiB answer is about 20 ms of CPU (30-38 ms with 2 ms and 12 lines),
 * and the whole answer is drawn as soon, the stream itself being the limit (bench/RESULTS.md).
 */
const frameBudgetMs = 1;
const linesPerStep = 6;

/** Sent (bubbling) from the writer's element after a frame added lines. */
export const growEvent = "md-grow";

export class MarkdownWriter {
  private stream = new MarkdownStream();
  private chunk: HTMLElement | undefined;
  private blocks = 0;
  private chars = 0;
  private height = 0;
  private code: HTMLElement | undefined;
  private paragraph: HTMLElement | undefined;
  private list: HTMLElement | undefined;
  private readonly tail: HTMLElement;
  private frame: number | undefined;

  constructor(private readonly root: HTMLElement) {
    this.tail = document.createElement("div");
    this.tail.className = "md-tail";
    root.replaceChildren(this.tail);
  }

  update(text: string, final: boolean): void {
    if (this.stream.update(text, final).reset) {
      this.root.replaceChildren(this.tail);
      this.code = this.paragraph = this.list = this.chunk = undefined;
    }
    // Drawn now when no frame is already on its way to do it.
    if (this.frame === undefined) this.draw(false);
  }

  /** Stops drawing (the element left the page). */
  dispose(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
  }

  /** Adds lines for up to a frame's budget, then asks for the next frame if some are left. */
  private draw(inFrame: boolean): void {
    this.frame = undefined;
    const start = performance.now();
    let added = 0;
    while (this.stream.pending > 0 && (added === 0 || performance.now() - start < frameBudgetMs)) {
      for (const line of this.stream.take(linesPerStep)) this.add(line);
      added += 1;
    }
    if (added > 0) this.sizeChunk();
    const tail = this.stream.pending === 0 ? this.stream.tail : { text: "", inCode: false };
    if (this.tail.textContent !== tail.text) this.tail.textContent = tail.text;
    this.tail.classList.toggle("md-code", tail.inCode);
    // The page scrolls now (this event), so the frame lays the page out once, already scrolled.
    if (inFrame && added > 0) this.root.dispatchEvent(new Event(growEvent, { bubbles: true }));
    if (this.stream.pending > 0) this.frame = requestAnimationFrame(() => this.draw(true));
  }

  private get full(): boolean {
    return this.blocks >= chunkBlocks || this.chars >= chunkChars;
  }

  private openChunk(): HTMLElement {
    this.sizeChunk();
    this.chunk = document.createElement("div");
    this.chunk.className = "md-chunk";
    this.blocks = this.chars = this.height = 0;
    this.root.insertBefore(this.chunk, this.tail);
    return this.chunk;
  }

  /** A new block, in the open chunk (a new one when it is full and nothing open could still grow). */
  private block<E extends HTMLElement>(element: E): E {
    const chunk = this.chunk === undefined || (this.full && this.code === undefined && this.list === undefined && this.paragraph === undefined) ? this.openChunk() : this.chunk;
    this.blocks += 1;
    this.height += blockGap;
    chunk.append(element);
    return element;
  }

  /**
   * A long block (a code block of a whole file, a long list) goes on in a new
   * chunk once its chunk is full, as a piece that joins the one before it
   * without a seam (`md-cut`, `md-cont`): one block growing without end would
   * otherwise keep its chunk on screen and laid out whole at every frame.
   */
  private cutOpenBlock(line: MarkdownLine): void {
    const open = line.kind === "code" ? this.code : line.kind === "paragraph" ? this.paragraph : line.kind === "list" ? this.list : undefined;
    if (open === undefined || !this.full) return;
    const piece = open.cloneNode(false) as HTMLElement;
    open.classList.add("md-cut");
    piece.classList.add("md-cont");
    this.openChunk().append(piece);
    this.blocks = 1;
    if (open === this.code) this.code = piece;
    else if (open === this.paragraph) this.paragraph = piece;
    else this.list = piece;
  }

  /** Appends one line: to the open code block, paragraph or list when it continues one. */
  private add(line: MarkdownLine): void {
    this.cutOpenBlock(line);
    this.addLine(line);
    const { chars, height } = measure(line);
    this.chars += chars;
    this.height += height;
  }

  /** The open chunk's estimated height, which stands for it only while the browser has not drawn it ("auto": then its drawn height). */
  private sizeChunk(): void {
    if (this.chunk !== undefined) this.chunk.style.containIntrinsicSize = `auto ${Math.round(this.height)}px`;
  }

  private addLine(line: MarkdownLine): void {
    const append = <E extends HTMLElement>(element: E): E => this.block(element);
    if (line.kind === "code") {
      this.code ??= append(Object.assign(document.createElement("pre"), { className: "md-pre" }));
      this.code.append(`${line.text}\n`);
      return;
    }
    if (line.kind === "fence-open") {
      this.paragraph = this.list = undefined;
      this.code = append(Object.assign(document.createElement("pre"), { className: "md-pre" }));
      if (line.language !== "") this.code.dataset["language"] = line.language;
      return;
    }
    if (line.kind === "fence-close") {
      this.code = undefined;
      return;
    }
    if (line.kind === "paragraph") {
      this.list = undefined;
      if (this.paragraph === undefined) this.paragraph = append(document.createElement("p"));
      else if (this.paragraph.hasChildNodes()) this.paragraph.append(document.createElement("br"));
      this.paragraph.append(...spanElements(line.spans));
      return;
    }
    this.paragraph = undefined;
    if (line.kind === "list") {
      this.list ??= append(Object.assign(document.createElement("div"), { className: "md-list" }));
      const item = document.createElement("div");
      item.className = "md-item";
      item.style.paddingLeft = `${Math.min(line.indent, 12) * 0.5 + 1.2}em`;
      item.dataset["bullet"] = line.bullet;
      item.append(...spanElements(line.spans));
      this.list.append(item);
      return;
    }
    this.list = undefined;
    if (line.kind === "blank") return;
    if (line.kind === "rule") append(document.createElement("hr"));
    else if (line.kind === "heading") append(document.createElement(`h${Math.min(line.level + 2, 6)}`)).append(...spanElements(line.spans));
    else append(document.createElement("blockquote")).append(...spanElements(line.spans));
  }
}
