import { AssistantMessageParser } from "../parser/assistant-message-parser.js";
import type { ParserOptions } from "../parser/assistant-message-parser.js";
import { StringBuilder } from "../parser/values.js";
import type { Block, ReasoningBlock, TextBlock, ToolUseBlock } from "../parser/types.js";
import type { Chunk } from "../llm/types.js";
import type { BlockList } from "./task-state.js";

type ToolCallChunk = Extract<Chunk, { type: "tool_call" }>;

/** Native tool calls assembled from their deltas (src/llm/native-tool-calls.ts). */
export type { NativeToolCallSink } from "./contracts/task-options.js";
import type { NativeToolCallSink, TaskOptions } from "./contracts/task-options.js";

/**
 * The segment still growing. Text and reasoning are taken in per delta but
 * shown lazily (issue 18): `stale` says the block's content lags behind `text`,
 * `deferred` holds xml text that only grows the open block (the parser's
 * `onlyGrows`), parsed when the blocks are next read.
 */
type Segment =
  | { kind: "reasoning"; block: ReasoningBlock; text: StringBuilder; stale: boolean }
  | { kind: "xml-text"; parser: AssistantMessageParser; blocks: Block[]; prefix: string; prefixed: number; deferred: StringBuilder }
  | { kind: "plain-text"; block: TextBlock; text: StringBuilder; stale: boolean }
  | { kind: "tool"; index: number; block: ToolUseBlock };

/**
 * Cuts one streamed answer into blocks (SPEC T2b, T7): text through the
 * incremental parser (xml protocol) or as plain text (native protocol),
 * reasoning as reasoning blocks, native tool calls as tool blocks. Only the last
 * segment can still change, so earlier ones are frozen into `settled` and
 * lookups cost O(1) however long the answer grows. A delta that only makes the
 * last block longer costs an append; the block is brought up to date when the
 * blocks are read (`length`, `at`, `toArray`), so readers see what a parse of
 * every delta would have given. `push*` say whether the shape (how many blocks,
 * whether the last is complete) may have changed.
 */
export class StreamAssembler implements BlockList {
  private readonly settled: Block[] = [];
  private current: Segment | undefined;
  private segmentCount = 0;
  /** The text of the segments before the current one, and the parsed part of the current xml text. */
  private readonly raw = new StringBuilder();

  /** A round's assembler for a task: its protocol and its tools' names. */
  static forTask(options: Pick<TaskOptions, "protocol" | "toolExecutor" | "createNativeToolCalls">): StreamAssembler {
    return new StreamAssembler({
      protocol: options.protocol,
      parser: { toolNames: options.toolExecutor.toolNames(), parameterNames: options.toolExecutor.parameterNames() },
      ...(options.protocol === "native" && options.createNativeToolCalls ? { nativeToolCalls: options.createNativeToolCalls() } : {}),
    });
  }

  constructor(
    private readonly options: {
      protocol: "xml" | "native";
      parser: ParserOptions;
      /** Assembles native tool calls (native protocol). */
      nativeToolCalls?: NativeToolCallSink;
    },
  ) {}

  get length(): number {
    return this.settled.length + this.currentBlocks().length;
  }

  at(index: number): Block | undefined {
    if (index < this.settled.length) return this.settled[index];
    return this.currentBlocks()[index - this.settled.length];
  }

  /** The answer's text as streamed, every text delta in order (the xml history keeps it). */
  rawText(): string {
    const current = this.current;
    const unread = current?.kind === "xml-text" ? current.deferred.toString() : current?.kind === "plain-text" ? current.text.toString() : "";
    return this.raw.toString() + unread;
  }

  /** Every block, copied (for history and tests; not for the hot path). */
  toArray(): Block[] {
    return [...this.settled, ...this.currentBlocks()];
  }

  /** Adds streamed text; true when the shape of the blocks may have changed. */
  pushText(text: string): boolean {
    const current = this.current;
    if (this.options.protocol === "xml") {
      if (current?.kind === "xml-text") {
        if (current.parser.onlyGrows(text)) {
          // A builder, not `+=`: a rope of every delta of a frame would outlive a young-generation collection.
          current.deferred.append(text);
          return false;
        }
        this.parse(current, text);
        return true;
      }
      this.settle();
      this.segmentCount += 1;
      const segment: Segment = { kind: "xml-text", parser: new AssistantMessageParser(this.options.parser), blocks: [], prefix: `s${this.segmentCount}-`, prefixed: 0, deferred: new StringBuilder() };
      this.current = segment;
      this.parse(segment, text);
      return true;
    }
    if (current?.kind === "plain-text") {
      const grows = current.text.length > 0;
      // Not `content += text`: a rope of one node per delta (issue 18).
      current.text.append(text);
      current.stale = true;
      return !grows;
    }
    this.settle();
    const builder = new StringBuilder();
    builder.append(text);
    this.current = { kind: "plain-text", block: { type: "text", content: "", partial: true }, text: builder, stale: true };
    return true;
  }

  /**
   * Reasoning deltas join the current reasoning block, except that a signed or
   * redacted block is closed: Anthropic signs each thinking block on its own and
   * sends redacted_thinking whole, and the API wants every one back exactly as
   * it came (#11 item 4).
   */
  pushReasoning(chunk: Extract<Chunk, { type: "reasoning" }>): boolean {
    const open = this.current?.kind === "reasoning" ? this.current.block : undefined;
    const closed = open !== undefined && (open.signature !== undefined || open.redactedData !== undefined);
    const opens = this.current?.kind !== "reasoning" || closed || chunk.redactedData !== undefined;
    if (opens) {
      this.settle();
      this.current = { kind: "reasoning", block: { type: "reasoning", content: "", partial: true }, text: new StringBuilder(), stale: false };
    }
    const current = this.current as Extract<Segment, { kind: "reasoning" }>;
    if (chunk.text !== "") {
      current.text.append(chunk.text);
      current.stale = true;
    }
    if (chunk.signature !== undefined) current.block.signature = chunk.signature;
    if (chunk.redactedData !== undefined) current.block.redactedData = chunk.redactedData;
    return opens;
  }

  pushToolCall(chunk: ToolCallChunk): boolean {
    const sink = this.options.nativeToolCalls;
    if (!sink) return false;
    const block = sink.push(chunk);
    if (this.current?.kind === "tool" && this.current.index === chunk.index) {
      this.current.block = block;
      return false;
    }
    this.settle();
    this.current = { kind: "tool", index: chunk.index, block };
    return true;
  }

  /** SPEC T17: the stream ended; every block still partial is complete. */
  finish(): void {
    this.settle();
    const native = this.options.nativeToolCalls;
    if (native) {
      const final = new Map(native.finish().map((block) => [block.id, block]));
      this.settled.forEach((block, index) => {
        if (block.type === "tool_use") this.settled[index] = final.get(block.id) ?? block;
      });
    }
    for (const block of this.settled) block.partial = false;
  }

  /** A native call's arguments as parsed JSON (for the history). */
  toolInput(blockId: string): Record<string, unknown> | undefined {
    return this.options.nativeToolCalls?.toolUses().find((use) => use.id === blockId)?.input;
  }

  private currentBlocks(): readonly Block[] {
    const current = this.current;
    if (!current) return [];
    switch (current.kind) {
      case "reasoning":
        if (current.stale) this.refresh(current);
        return [current.block];
      case "plain-text":
        if (current.stale) this.refresh(current);
        return current.block.content.length > 0 ? [current.block] : [];
      case "xml-text":
        if (current.deferred.length !== 0) this.parse(current, "");
        return current.blocks;
      case "tool":
        return [current.block];
    }
  }

  /** The block's content from the text taken in so far. */
  private refresh(segment: Extract<Segment, { kind: "reasoning" | "plain-text" }>): void {
    segment.block.content = segment.text.toString();
    segment.stale = false;
  }

  /** Parses the deferred text and `text` after it. */
  private parse(segment: Extract<Segment, { kind: "xml-text" }>, text: string): void {
    const deferred = segment.deferred;
    const input = deferred.length === 0 ? text : deferred.toString() + text;
    deferred.clear();
    this.raw.append(input);
    segment.blocks = segment.parser.push(input);
    this.prefixIds(segment);
  }

  private settle(): void {
    const current = this.current;
    if (!current) return;
    if (current.kind === "xml-text") {
      this.parse(current, "");
      current.blocks = current.parser.end();
      this.prefixIds(current);
    }
    if (current.kind === "plain-text") this.raw.append(current.text.toString());
    if (current.kind === "tool") {
      // A call is completed (its arguments parsed in full) when the next one starts.
      const id = current.block.id;
      current.block = this.options.nativeToolCalls?.blocks().find((block) => block.id === id) ?? current.block;
    }
    for (const block of this.currentBlocks()) {
      if (block.type === "text") block.content = block.content.trim();
      if (block.type === "text" && block.content.length === 0) continue;
      block.partial = false;
      this.settled.push(block);
    }
    this.current = undefined;
  }

  /**
   * Parser ids are unique within one parser; several text segments need a
   * prefix. Only blocks from the last one seen on are new, so this stays O(1).
   */
  private prefixIds(segment: Extract<Segment, { kind: "xml-text" }>): void {
    for (let index = Math.max(0, segment.prefixed - 1); index < segment.blocks.length; index += 1) {
      const block = segment.blocks[index];
      if (block?.type === "tool_use" && !block.id.startsWith(segment.prefix)) block.id = `${segment.prefix}${block.id}`;
    }
    segment.prefixed = segment.blocks.length;
  }
}
