/**
 * The incremental assistant-message parser (issue 2, SPEC T7, T17, P-perf-1).
 *
 * It reads the input once, left to right. Input it cannot decide on yet (a `<`
 * that may still become a tag) is kept in `pending`, which never holds more
 * than one tag's worth of characters; everything else is consumed at once into
 * growing values. So each push costs time proportional to its chunk, and the
 * blocks after each push are those of a one-shot parse of the text so far.
 */
import type { Block, TextBlock, ToolUseBlock } from "./types.js";
import { KNOWN_PARAMETER_NAMES, KNOWN_TOOL_NAMES, TagNames, VERBATIM_PARAMETER_NAMES } from "./names.js";
import { indexOfTagOrItsStart, scanTag, unfinishedTagLength } from "./tags.js";
import { TrimmedValue, VerbatimValue } from "./values.js";

export interface ParserOptions {
  /** Tool names registered at run time (MCP or future tools), added to KNOWN_TOOL_NAMES. */
  toolNames?: Iterable<string>;
  /** Parameter names registered at run time, added to KNOWN_PARAMETER_NAMES. */
  parameterNames?: Iterable<string>;
}

type State =
  | { kind: "text"; text: TrimmedValue }
  /** Inside a tool, between parameters. */
  | { kind: "tool"; block: ToolUseBlock }
  /** Inside a parameter value, before its first closing tag. */
  | { kind: "value"; block: ToolUseBlock; name: string; value: TrimmedValue | VerbatimValue; closeTag: string }
  /**
   * A `content`/`diff` value after one of its closing tags: a later closing
   * tag of its own may still extend it, so the text since the last one waits.
   */
  | { kind: "verbatim-closed"; block: ToolUseBlock; name: string; value: VerbatimValue; sinceClose: string; closeTag: string }
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
  private readonly tools: TagNames;
  private readonly parameters: TagNames;
  private readonly maxNameLength: number;
  private readonly blocks: Block[] = [];
  /** Blocks before the open text block (if any); the text block is added only when non-empty. */
  private settledCount = 0;
  private openText: TextBlock = { type: "text", content: "", partial: true };
  private state: State;
  private pending = "";
  private toolCount = 0;

  constructor(options: ParserOptions = {}) {
    this.tools = new TagNames([KNOWN_TOOL_NAMES, options.toolNames]);
    this.parameters = new TagNames([KNOWN_PARAMETER_NAMES, options.parameterNames]);
    this.maxNameLength = Math.max(this.tools.maxLength, this.parameters.maxLength);
    this.state = this.startText();
  }

  /**
   * Adds a chunk and returns the blocks so far. The array and its blocks may
   * be changed by the next call: copy what you keep (SPEC P6).
   */
  push(chunk: string): Block[] {
    if (this.state.kind === "ended" || typeof chunk !== "string" || chunk.length === 0) return this.blocks;
    let input = chunk;
    if (this.pending.length !== 0) {
      if (this.state.kind === "value") {
        input = this.continueHeldCloseTag(this.state, chunk);
      } else {
        input = this.pending + chunk;
        this.pending = "";
      }
    }
    let at = 0;
    while (at < input.length) at = this.step(input, at);
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
    if (this.pending.length !== 0 || chunk.indexOf("<") !== -1) return false;
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
        state.text.append(this.pending);
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
    this.pending = "";
    this.state = { kind: "ended" };
    return this.blocks;
  }

  /** Consumes input from `at` in the current state; returns where to go on. */
  private step(input: string, at: number): number {
    switch (this.state.kind) {
      case "text":
        return this.stepText(this.state, input, at);
      case "tool":
        return this.stepTool(this.state, input, at);
      case "value":
        return this.stepValue(this.state, input, at);
      case "verbatim-closed":
        return this.stepVerbatimClosed(this.state, input, at);
      case "ended":
        return input.length;
    }
  }

  private stepText(state: Extract<State, { kind: "text" }>, input: string, at: number): number {
    let search = at;
    while (true) {
      const lessThan = input.indexOf("<", search);
      if (lessThan === -1) {
        state.text.append(input.slice(at));
        return input.length;
      }
      const tag = scanTag(input, lessThan, this.maxNameLength);
      if (tag.kind === "tag" && !tag.closing && this.tools.has(tag.name)) {
        state.text.append(input.slice(at, lessThan));
        this.closeText(state.text);
        this.openTool(tag.name);
        return tag.end;
      }
      if (tag.kind === "unfinished" && !tag.closing && this.tools.couldStart(tag.name)) {
        state.text.append(input.slice(at, lessThan));
        return this.holdBack(input, lessThan);
      }
      search = lessThan + 1;
    }
  }

  private stepTool(state: Extract<State, { kind: "tool" }>, input: string, at: number): number {
    const toolName = state.block.name;
    let search = at;
    while (true) {
      const lessThan = input.indexOf("<", search);
      if (lessThan === -1) return input.length;
      const tag = scanTag(input, lessThan, this.maxNameLength);
      if (tag.kind === "tag") {
        if (tag.closing && tag.name === toolName) {
          this.closeTool(state.block);
          return tag.end;
        }
        if (!tag.closing && this.parameters.has(tag.name)) {
          this.openParameter(state.block, tag.name);
          return tag.end;
        }
      } else if (tag.kind === "unfinished") {
        const possible = tag.closing ? toolName.startsWith(tag.name) : this.parameters.couldStart(tag.name);
        if (possible) return this.holdBack(input, lessThan);
      }
      search = lessThan + 1;
    }
  }

  private stepValue(state: Extract<State, { kind: "value" }>, input: string, at: number): number {
    if (input.length - at <= SHORT_INPUT) return this.stepShortValue(state, input, at);
    const lessThan = input.indexOf("<", at);
    if (lessThan === -1) {
      state.value.append(at === 0 ? input : input.slice(at));
      return input.length;
    }
    const close = input.indexOf(state.closeTag, lessThan);
    if (close === -1) {
      const held = unfinishedTagLength(input, lessThan, state.closeTag);
      state.value.append(input.slice(at, input.length - held));
      return this.holdBack(input, input.length - held);
    }
    state.value.append(input.slice(at, close));
    this.closeValue(state);
    return close + state.closeTag.length;
  }

  /**
   * The start of the value's closing tag was held back and the next chunk has
   * come: decides on it by comparing in place, rather than joining the two
   * strings (a new string to flatten, on one push in six of a streamed file).
   * Returns what remains of the chunk to read.
   */
  private continueHeldCloseTag(state: Extract<State, { kind: "value" }>, chunk: string): string {
    const held = this.pending;
    const tag = state.closeTag;
    const missing = tag.length - held.length;
    const compared = Math.min(missing, chunk.length);
    let index = 0;
    while (index < compared && chunk.charCodeAt(index) === tag.charCodeAt(held.length + index)) index += 1;
    if (index < compared) {
      // Not the closing tag: what was held is part of the value. The tag has one '<', its first
      // character, so no closing tag can start inside what was held.
      this.pending = "";
      state.value.append(held);
      return chunk;
    }
    if (compared < missing) {
      this.pending = held + chunk;
      return "";
    }
    this.pending = "";
    this.closeValue(state);
    return chunk.slice(missing);
  }

  /** `stepValue` for the short input of a push. */
  private stepShortValue(state: Extract<State, { kind: "value" }>, input: string, at: number): number {
    const close = indexOfTagOrItsStart(input, at, state.closeTag);
    if (close === -1) {
      state.value.append(at === 0 ? input : input.slice(at));
      return input.length;
    }
    state.value.append(input.slice(at, close));
    if (input.length - close < state.closeTag.length) return this.holdBack(input, close);
    this.closeValue(state);
    return close + state.closeTag.length;
  }

  /** The value's closing tag has been read. */
  private closeValue(state: Extract<State, { kind: "value" }>): void {
    const { block, name, value, closeTag } = state;
    block.params[name] = value.settledValue();
    this.state = value instanceof VerbatimValue ? { kind: "verbatim-closed", block, name, value, sinceClose: closeTag, closeTag } : { kind: "tool", block };
  }

  private stepVerbatimClosed(state: Extract<State, { kind: "verbatim-closed" }>, input: string, at: number): number {
    const { block, name } = state;
    let from = at;
    let search = at;
    while (true) {
      const lessThan = input.indexOf("<", search);
      if (lessThan === -1) {
        state.sinceClose += input.slice(from);
        return input.length;
      }
      const tag = scanTag(input, lessThan, this.maxNameLength);
      if (tag.kind === "tag") {
        if (tag.closing && tag.name === name) {
          // Another closing tag of its own: everything up to it belongs to the value.
          state.value.append(state.sinceClose + input.slice(from, lessThan));
          state.sinceClose = state.closeTag;
          block.params[name] = state.value.settledValue();
          from = search = tag.end;
          continue;
        }
        if (tag.closing && tag.name === block.name) {
          this.closeTool(block);
          return tag.end;
        }
        if (!tag.closing && this.parameters.has(tag.name)) {
          this.openParameter(block, tag.name);
          return tag.end;
        }
      } else if (tag.kind === "unfinished") {
        const possible = tag.closing ? name.startsWith(tag.name) || block.name.startsWith(tag.name) : this.parameters.couldStart(tag.name);
        if (possible) {
          state.sinceClose += input.slice(from, lessThan);
          return this.holdBack(input, lessThan);
        }
      }
      search = lessThan + 1;
    }
  }

  private holdBack(input: string, from: number): number {
    this.pending = from === input.length ? "" : input.slice(from);
    return input.length;
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
    this.state = { kind: "tool", block };
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
