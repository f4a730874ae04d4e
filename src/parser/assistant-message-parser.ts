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

/** Where a state keeps the text between the tags that matter in it. */
interface Kept {
  append(piece: string): void;
}

/** Between a tool's parameters text is dropped. */
const DROPPED: Kept = { append: () => undefined };

/** The text after a `content`/`diff` value's closing tag, that tag included: a later closing tag of its own makes it part of the value. */
class SinceClose implements Kept {
  constructor(public text: string) {}
  append(piece: string): void {
    this.text += piece;
  }
}

/**
 * The states that look for tags `<` by `<`: each keeps the trie of the tags
 * that matter in it (after their `<`) and where the text between them goes.
 */
type TagState =
  | { kind: "text"; tags: TagNode; kept: TrimmedValue; text: TrimmedValue }
  /** Inside a tool, between parameters. */
  | { kind: "tool"; tags: TagNode; kept: Kept; block: ToolUseBlock }
  /**
   * A `content`/`diff` value after one of its closing tags: a later closing
   * tag of its own may still extend it, so the text since the last one waits.
   */
  | { kind: "verbatim-closed"; tags: TagNode; kept: SinceClose; block: ToolUseBlock; name: string; value: VerbatimValue };

type State =
  | TagState
  /** Inside a parameter value, before its first closing tag. */
  | { kind: "value"; block: ToolUseBlock; name: string; value: TrimmedValue | VerbatimValue; closeTag: string; tags: TagNode }
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
    if (state.kind === "ended" || typeof chunk !== "string" || chunk.length === 0) return this.blocks;
    let at = 0;
    if (this.held !== undefined) {
      at = this.resumeHeld(this.held, chunk);
    } else if (state.kind === "text") {
      // Text, the most common state by far: one search for `<` serves both the chunk that only
      // grows the open text block and the scan for tags.
      const lessThan = chunk.indexOf("<");
      if (lessThan === -1) {
        state.text.append(chunk);
        this.showText(state.text);
        return this.blocks;
      }
      at = this.stepTags(state, chunk, 0, lessThan);
    }
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
      this.keep(held.text);
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
      case "value":
        return input.length - at <= SHORT_INPUT ? this.stepShortValue(state, input, at) : this.stepValue(state, input, at);
      case "ended":
        return input.length;
      default:
        return this.stepTags(state, input, at, input.indexOf("<", at));
    }
  }

  /**
   * Reads up to the next tag that matters in `state` (`lessThan` is the first
   * `<` from `at`, or -1), keeping what comes before it, and reads that tag;
   * or holds back the end of the input when a tag may start there.
   */
  private stepTags(state: TagState, input: string, at: number, lessThan: number): number {
    const tags = state.tags;
    while (lessThan !== -1) {
      const node = followTag(tags, input, lessThan + 1);
      if (node !== undefined) {
        if (lessThan !== at) state.kept.append(input.slice(at, lessThan));
        if (node.tag === undefined) {
          this.held = node;
          return input.length;
        }
        this.readTag(node.tag);
        return lessThan + node.text.length;
      }
      lessThan = input.indexOf("<", lessThan + 1);
    }
    state.kept.append(at === 0 ? input : input.slice(at));
    return input.length;
  }

  /** `piece` is not a tag that matters: it goes where the current state keeps such text. */
  private keep(piece: string): void {
    const state = this.state;
    if (state.kind === "value") state.value.append(piece);
    else if (state.kind !== "ended") state.kept.append(piece);
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
          state.value.append(state.kept.text);
          state.kept.text = closingTagOf(state.name);
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
        ? { kind: "verbatim-closed", tags: this.tags.afterValue(block.name, name), kept: new SinceClose(closeTag), block, name, value }
        : { kind: "tool", tags: this.tags.inTool(block.name), kept: DROPPED, block };
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
    this.state = { kind: "tool", tags: this.tags.inTool(name), kept: DROPPED, block };
  }

  private closeTool(block: ToolUseBlock): void {
    block.partial = false;
    this.state = this.startText();
  }

  private startText(): State {
    const text = new TrimmedValue();
    return { kind: "text", tags: this.tags.inText, kept: text, text };
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
    if (state.kind === "value") state.block.params[state.name] = state.value.value;
    else if (state.kind === "text") this.showText(state.text);
  }

  private showText(text: TrimmedValue): void {
    // The open text block is listed only when it has something to show (rule 2). It is
    // updated in place: truncating and refilling the array on every push cost a reallocation.
    if (text.isEmpty) {
      if (this.blocks.length !== this.settledCount) this.blocks.length = this.settledCount;
      return;
    }
    this.openText.content = text.value;
    if (this.blocks.length === this.settledCount) this.blocks.push(this.openText);
  }
}

/**
 * Parses `text` as an answer that may still be streaming: rule 6 applies at
 * its end (use a parser's `end()` for a finished answer).
 */
export function parseAssistantMessage(text: string, options: ParserOptions = {}): Block[] {
  return new AssistantMessageParser(options).push(text);
}
