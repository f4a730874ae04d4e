import { AssistantMessageParser } from "../parser/assistant-message-parser.js";
import type { ParserOptions } from "../parser/assistant-message-parser.js";
import { StringBuilder } from "../parser/values.js";
import type { Block, ReasoningBlock, TextBlock, ToolUseBlock } from "../parser/types.js";
import type { Chunk } from "../llm/types.js";
import type { BlockList } from "./task-state.js";

type ToolCallChunk = Extract<Chunk, { type: "tool_call" }>;

/** Native tool calls assembled from their deltas (src/llm/native-tool-calls.ts). */
export type { NativeToolCallSink } from "./contracts/task-options.js";
import type { NativeToolCallSink } from "./contracts/task-options.js";

type Segment =
  | { kind: "reasoning"; block: ReasoningBlock; text: StringBuilder }
  | { kind: "xml-text"; parser: AssistantMessageParser; blocks: Block[]; prefix: string; prefixed: number }
  | { kind: "plain-text"; block: TextBlock; text: StringBuilder }
  | { kind: "tool"; index: number; block: ToolUseBlock };

/**
 * Cuts one streamed answer into blocks (SPEC T2b, T7): text through the
 * incremental parser (xml protocol) or as plain text (native protocol),
 * reasoning as reasoning blocks, native tool calls as tool blocks. Only the last
 * segment can still change, so earlier ones are frozen into `settled` and
 * lookups cost O(1) however long the answer grows.
 */
export class StreamAssembler implements BlockList {
  private readonly settled: Block[] = [];
  private current: Segment | undefined;
  private segmentCount = 0;

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

  /** Every block, copied (for history and tests; not for the hot path). */
  toArray(): Block[] {
    return [...this.settled, ...this.currentBlocks()];
  }

  pushText(text: string): void {
    if (this.options.protocol === "xml") {
      if (this.current?.kind !== "xml-text") {
        this.settle();
        this.segmentCount += 1;
        const parser = new AssistantMessageParser(this.options.parser);
        this.current = { kind: "xml-text", parser, blocks: [], prefix: `s${this.segmentCount}-`, prefixed: 0 };
      }
      this.current.blocks = this.current.parser.push(text);
      this.prefixIds(this.current);
      return;
    }
    if (this.current?.kind !== "plain-text") {
      this.settle();
      this.current = { kind: "plain-text", block: { type: "text", content: "", partial: true }, text: new StringBuilder() };
    }
    // Not `content += text`: a rope of one node per delta (issue 18).
    this.current.text.append(text);
    this.current.block.content = this.current.text.toString();
  }

  /**
   * Reasoning deltas join the current reasoning block, except that a signed or
   * redacted block is closed: Anthropic signs each thinking block on its own and
   * sends redacted_thinking whole, and the API wants every one back exactly as
   * it came (#11 item 4).
   */
  pushReasoning(chunk: Extract<Chunk, { type: "reasoning" }>): void {
    const open = this.current?.kind === "reasoning" ? this.current.block : undefined;
    const closed = open !== undefined && (open.signature !== undefined || open.redactedData !== undefined);
    if (this.current?.kind !== "reasoning" || closed || chunk.redactedData !== undefined) {
      this.settle();
      this.current = { kind: "reasoning", block: { type: "reasoning", content: "", partial: true }, text: new StringBuilder() };
    }
    if (chunk.text !== "") {
      this.current.text.append(chunk.text);
      this.current.block.content = this.current.text.toString();
    }
    if (chunk.signature !== undefined) this.current.block.signature = chunk.signature;
    if (chunk.redactedData !== undefined) this.current.block.redactedData = chunk.redactedData;
  }

  pushToolCall(chunk: ToolCallChunk): void {
    const sink = this.options.nativeToolCalls;
    if (!sink) return;
    const block = sink.push(chunk);
    if (this.current?.kind === "tool" && this.current.index === chunk.index) {
      this.current.block = block;
      return;
    }
    this.settle();
    this.current = { kind: "tool", index: chunk.index, block };
  }

  /** SPEC T17: the stream ended; every block still partial is complete. */
  finish(): void {
    if (this.current?.kind === "xml-text") {
      this.current.blocks = this.current.parser.end();
      this.prefixIds(this.current);
    }
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
        return [current.block];
      case "plain-text":
        return current.block.content.length > 0 ? [current.block] : [];
      case "xml-text":
        return current.blocks;
      case "tool":
        return [current.block];
    }
  }

  private settle(): void {
    const current = this.current;
    if (!current) return;
    if (current.kind === "xml-text") {
      current.blocks = current.parser.end();
      this.prefixIds(current);
    }
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
