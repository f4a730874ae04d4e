/**
 * The incremental assistant-message parser (issue 2, SPEC T7, T17, P-perf-1).
 *
 * It reads the input once, left to right. Input it cannot decide on yet (a `<`
 * that may still become a tag) is held as the node it reached in a trie of the
 * tags that matter there (tag-trie.ts), never more than one tag's worth of
 * characters, and the next chunk goes on from that node; everything else is
 * consumed at once into growing values. So each push costs time proportional to its chunk, and the
 * blocks after each push are those of a one-shot parse of the text so far.
 */
import type { Block, TextBlock, ToolUseBlock } from "./types.js";
import { VERBATIM_PARAMETER_NAMES } from "./names.js";
import { followTag } from "./tag-trie.js";
import type { Tag, TagNode } from "./tag-trie.js";
import { TagVocabulary } from "./tag-vocabulary.js";
import { indexOfTagOrItsStart, unfinishedTagLength } from "./tags.js";
import { TrimmedValue, VerbatimValue } from "./values.js";

export interface ParserOptions {
  /** Tool names registered at run time (MCP or future tools), added to KNOWN_TOOL_NAMES. */
  toolNames?: Iterable<string>;
  /** Parameter names registered at run time, added to KNOWN_PARAMETER_NAMES. */
  parameterNames?: Iterable<string>;
}

/** Each state but "text" keeps the trie of the tags that matter in it (after their `<`). */
type State =
  | { kind: "text"; text: TrimmedValue }
  /** Inside a tool, between parameters. */
  | { kind: "tool"; block: ToolUseBlock; tags: TagNode }
  /** Inside a parameter value, before its first closing tag. */
  | { kind: "value"; block: ToolUseBlock; name: string; value: TrimmedValue | VerbatimValue; closeTag: string; tags: TagNode }
  /**
   * A `content`/`diff` value after one of its closing tags: a later closing
   * tag of its own may still extend it, so the text since the last one waits.
   */
  | { kind: "verbatim-closed"; block: ToolUseBlock; name: string; value: VerbatimValue; sinceClose: string; closeTag: string; tags: TagNode }
  | { kind: "ended" };

/**
 * Inputs up to this long (a push's chunk) look for a value's closing tag `<` by `<`;
 * longer ones (a one-shot parse) with one substring search.
 */
const SHORT_INPUT = 256;

const VERBATIM = new Set(VERBATIM_PARAMETER_NAMES);

/** `</name>`, built once per name rather than once per parameter. */
const closingTags = new Map<string, string>();
function closingTagOf(name: string): string {
  let tag = closingTags.get(name);
  if (tag === undefined) {
    tag = `</${name}>`;
    closingTags.set(name, tag);
  }
  return tag;
}

export class AssistantMessageParser {
  private readonly tags: TagVocabulary;
  private readonly blocks: Block[] = [];
  /** Blocks before the open text block (if any); the text block is added only when non-empty. */
  private settledCount = 0;
  private openText: TextBlock = { type: "text", content: "", partial: true };
  private state: State;
  /**
   * A tag cut by the end of the last chunk: the trie node its characters reached.
   * They are held back (its `text`) until the next chunk decides on them.
   */
  private held: TagNode | undefined = undefined;
  private toolCount = 0;

  constructor(options: ParserOptions = {}) {
    this.tags = TagVocabulary.of(options.toolNames, options.parameterNames);
    this.state = this.startText();
  }

  /**
   * Adds a chunk and returns the blocks so far. The array and its blocks may
   * be changed by the next call: copy what you keep (SPEC P6).
   */
  push(chunk: string): Block[] {
    const state = this.state;
    if (state.kind === "text" && this.held === undefined && typeof chunk === "string" && chunk.indexOf("<") === -1) {
      // Text that only grows the open text block, the most common chunk by far.
      const text = state.text;
      text.append(chunk);
      if (!text.isEmpty) {
        this.openText.content = text.value;
        if (this.blocks.length === this.settledCount) this.blocks.push(this.openText);
      }
      return this.blocks;
    }
    if (state.kind === "ended" || typeof chunk !== "string" || chunk.length === 0) return this.blocks;
    let at = this.held === undefined ? 0 : this.resumeHeld(this.held, chunk);
    while (at < chunk.length) at = this.step(chunk, at);
    this.showOpenBlock();
    return this.blocks;
  }

  /**
   * Whether pushing `chunk` would only make the open block longer: it holds no
   * `<`, nothing is held back, and the open block is already listed (a text
   * block with content, or a parameter value). Such chunks can be joined and
   * pushed later with the same result (issue 18: the stream assembler parses
   * them once per frame, not once per delta); the number of blocks and which
   * are complete cannot change meanwhile, and stays so after them.
   */
  onlyGrows(chunk: string): boolean {
    if (this.held !== undefined || chunk.indexOf("<") !== -1) return false;
    const state = this.state;
    return state.kind === "value" || (state.kind === "text" && !state.text.isEmpty);
  }

  /**
   * The stream has ended (SPEC T17): every block is complete, a held-back
   * text fragment goes back to its text, and an unfinished closing tag at the
   * end of a parameter value is dropped. Later pushes change nothing.
   */
  end(): Block[] {
    const state = this.state;
    switch (state.kind) {
      case "ended":
        return this.blocks;
      case "text":
        if (this.held !== undefined) state.text.append(this.held.text);
        this.showOpenBlock();
        this.openText.content = state.text.settledValue();
        this.openText.partial = false;
        break;
      case "value":
        state.block.params[state.name] = state.value.settledValue();
        state.block.partial = false;
        break;
      case "tool":
      case "verbatim-closed":
        state.block.partial = false;
        break;
    }
    this.held = undefined;
    this.state = { kind: "ended" };
    return this.blocks;
  }

  /**
   * A tag was cut by the end of the last chunk: the new chunk goes on down the
   * trie from where it stopped, without reading the held characters again.
   * Returns where to go on reading the chunk.
   */
  private resumeHeld(held: TagNode, chunk: string): number {
    this.held = undefined;
    const node = followTag(held, chunk, 0);
    if (node === undefined) {
      // Not a tag: the held characters are what they looked like. None of them is a `<` but the
      // first, so no tag starts among them; the chunk is read from its start.
      this.keep(held.text, 0, held.text.length);
      return 0;
    }
    if (node.tag === undefined) {
      this.held = node;
      return chunk.length;
    }
    this.readTag(node.tag);
    return node.text.length - held.text.length;
  }

  /** Consumes input from `at` in the current state; returns where to go on. */
  private step(input: string, at: number): number {
    const state = this.state;
    switch (state.kind) {
      case "text":
        return this.stepText(state, input, at);
      case "value":
        return input.length - at <= SHORT_INPUT ? this.stepShortValue(state, input, at) : this.stepValue(state, input, at);
      case "tool":
      case "verbatim-closed":
        return this.stepTags(state.tags, input, at);
      case "ended":
        return input.length;
    }
  }

  /** `stepTags` for text, the most common state, with its trie and value at hand. */
  private stepText(state: Extract<State, { kind: "text" }>, input: string, at: number): number {
    let lessThan = input.indexOf("<", at);
    while (lessThan !== -1) {
      const node = followTag(this.tags.inText, input, lessThan + 1);
      if (node !== undefined) {
        if (lessThan !== at) state.text.append(input.slice(at, lessThan));
        if (node.tag === undefined) {
          this.held = node;
          return input.length;
        }
        this.readTag(node.tag);
        return lessThan + node.text.length;
      }
      lessThan = input.indexOf("<", lessThan + 1);
    }
    state.text.append(at === 0 ? input : input.slice(at));
    return input.length;
  }

  /**
   * Reads up to the next tag that matters in the current state (one of `tags`),
   * keeping what comes before it, and reads that tag; or holds back the end of
   * the input when a tag may start there.
   */
  private stepTags(tags: TagNode, input: string, at: number): number {
    let lessThan = input.indexOf("<", at);
    while (lessThan !== -1) {
      const node = followTag(tags, input, lessThan + 1);
      if (node !== undefined) {
        this.keep(input, at, lessThan);
        if (node.tag === undefined) {
          this.held = node;
          return input.length;
        }
        this.readTag(node.tag);
        return lessThan + node.text.length;
      }
      lessThan = input.indexOf("<", lessThan + 1);
    }
    this.keep(input, at, input.length);
    return input.length;
  }

  /** `input[from..to]` is not a tag that matters: it goes where the current state keeps such text. */
  private keep(input: string, from: number, to: number): void {
    if (from === to) return;
    const state = this.state;
    const piece = from === 0 && to === input.length ? input : input.slice(from, to);
    switch (state.kind) {
      case "text":
      case "value":
        (state.kind === "text" ? state.text : state.value).append(piece);
        break;
      case "verbatim-closed":
        state.sinceClose += piece;
        break;
      case "tool":
      case "ended":
        break;
    }
  }

  /** A tag that matters in the current state has been read whole. */
  private readTag(tag: Tag): void {
    const state = this.state;
    switch (state.kind) {
      case "text":
        this.closeText(state.text);
        this.openTool(tag.name);
        break;
      case "tool":
        if (tag.closing) this.closeTool(state.block);
        else this.openParameter(state.block, tag.name);
        break;
      case "value":
        this.closeValue(state);
        break;
      case "verbatim-closed":
        if (tag.closing && tag.name === state.name) {
          // Another closing tag of its own: everything up to it belongs to the value.
          state.value.append(state.sinceClose);
          state.sinceClose = state.closeTag;
          state.block.params[state.name] = state.value.settledValue();
        } else if (tag.closing) {
          this.closeTool(state.block);
        } else {
          this.openParameter(state.block, tag.name);
        }
        break;
      case "ended":
        break;
    }
  }

  /** `step` in a value, on the long input of a one-shot parse: one substring search. */
  private stepValue(state: Extract<State, { kind: "value" }>, input: string, at: number): number {
    const lessThan = input.indexOf("<", at);
    if (lessThan === -1) {
      state.value.append(at === 0 ? input : input.slice(at));
      return input.length;
    }
    const close = input.indexOf(state.closeTag, lessThan);
    if (close === -1) {
      const held = unfinishedTagLength(input, lessThan, state.closeTag);
      state.value.append(input.slice(at, input.length - held));
      if (held !== 0) this.held = followTag(state.tags, input, input.length - held + 1);
      return input.length;
    }
    state.value.append(input.slice(at, close));
    this.closeValue(state);
    return close + state.closeTag.length;
  }

  /** `step` in a value, on the short input of a push. */
  private stepShortValue(state: Extract<State, { kind: "value" }>, input: string, at: number): number {
    const close = indexOfTagOrItsStart(input, at, state.closeTag);
    if (close === -1) {
      state.value.append(at === 0 ? input : input.slice(at));
      return input.length;
    }
    state.value.append(input.slice(at, close));
    if (input.length - close < state.closeTag.length) {
      this.held = followTag(state.tags, input, close + 1);
      return input.length;
    }
    this.closeValue(state);
    return close + state.closeTag.length;
  }

  /** The value's closing tag has been read. */
  private closeValue(state: Extract<State, { kind: "value" }>): void {
    const { block, name, value, closeTag } = state;
    block.params[name] = value.settledValue();
    this.state =
      value instanceof VerbatimValue
        ? { kind: "verbatim-closed", block, name, value, sinceClose: closeTag, closeTag, tags: this.tags.afterValue(block.name, name) }
        : { kind: "tool", block, tags: this.tags.inTool(block.name) };
  }

  private closeText(text: TrimmedValue): void {
    this.blocks.length = this.settledCount;
    if (!text.isEmpty) {
      this.openText.content = text.settledValue();
      this.openText.partial = false;
      this.blocks.push(this.openText);
      this.openText = { type: "text", content: "", partial: true };
    }
    this.settledCount = this.blocks.length;
  }

  private openTool(name: string): void {
    // Ids count tools in message order, so a one-shot parse gives the same ids (rule 7).
    this.toolCount += 1;
    const block: ToolUseBlock = { type: "tool_use", id: `tool-${this.toolCount}`, name, params: {}, partial: true };
    this.blocks.push(block);
    this.settledCount = this.blocks.length;
    this.state = { kind: "tool", block, tags: this.tags.inTool(name) };
  }

  private closeTool(block: ToolUseBlock): void {
    block.partial = false;
    this.state = this.startText();
  }

  private startText(): State {
    return { kind: "text", text: new TrimmedValue() };
  }

  private openParameter(block: ToolUseBlock, name: string): void {
    block.params[name] = "";
    this.state = {
      kind: "value",
      block,
      name,
      value: VERBATIM.has(name) ? new VerbatimValue() : new TrimmedValue(),
      closeTag: closingTagOf(name),
      tags: this.tags.inValue(name),
    };
  }

  /** Brings the last block up to date with the input so far. */
  private showOpenBlock(): void {
    const state = this.state;
    if (state.kind === "value") {
      state.block.params[state.name] = state.value.value;
    } else if (state.kind === "text") {
      // The open text block is listed only when it has something to show (rule 2). It is
      // updated in place: truncating and refilling the array on every push cost a reallocation.
      if (state.text.isEmpty) {
        if (this.blocks.length !== this.settledCount) this.blocks.length = this.settledCount;
        return;
      }
      this.openText.content = state.text.value;
      if (this.blocks.length === this.settledCount) this.blocks.push(this.openText);
    }
  }
}

/**
 * Parses `text` as an answer that may still be streaming: rule 6 applies at
 * its end (use a parser's `end()` for a finished answer).
 */
export function parseAssistantMessage(text: string, options: ParserOptions = {}): Block[] {
  return new AssistantMessageParser(options).push(text);
}
