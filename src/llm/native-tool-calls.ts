import { randomBytes } from "node:crypto";
import type { ToolUseBlock } from "../parser/types.js";
import { PartialJsonObjectReader, parseArguments, toStringParams } from "./partial-json.js";
import type { Chunk, ToolUseContent } from "./types.js";

export type ToolCallChunk = Extract<Chunk, { type: "tool_call" }>;

/** The parameter that carries the raw text when a call's arguments are not a JSON object. */
export const invalidArgumentsParam = "__invalid_arguments";

interface CallState {
  id: string;
  name: string;
  /** The raw argument pieces, joined once when the call completes. */
  pieces: string[];
  reader: PartialJsonObjectReader;
  partial: boolean;
  params: Record<string, string>;
  input: Record<string, unknown>;
}

export interface NativeToolCallAssemblerOptions {
  /** Id for a call the server sent without one. */
  generateId?: () => string;
}

const defaultId = (): string => `call_${randomBytes(9).toString("base64url")}`;

/**
 * Assembles native tool-call deltas into the same `tool_use` blocks the XML parser produces, so
 * the Task cannot tell the protocols apart. Parameters are visible while the arguments stream;
 * a call stays partial until the next call starts or `finish()` is called.
 */
export class NativeToolCallAssembler {
  private readonly calls = new Map<number, CallState>();
  private readonly usedIds = new Set<string>();
  private readonly generateId: () => string;

  constructor(options: NativeToolCallAssemblerOptions = {}) {
    this.generateId = options.generateId ?? defaultId;
  }

  /** Feeds one delta; returns a copy of the block it changed. */
  push(chunk: ToolCallChunk): ToolUseBlock {
    let call = this.calls.get(chunk.index);
    if (call === undefined) {
      for (const other of this.calls.values()) this.complete(other);
      call = this.open(chunk);
      this.calls.set(chunk.index, call);
    } else if (call.name === "" && chunk.name !== undefined) {
      call.name = chunk.name;
    }
    if (chunk.argumentsDelta !== "") {
      call.pieces.push(chunk.argumentsDelta);
      call.partial = true;
      call.reader.feed(chunk.argumentsDelta);
      call.params = call.reader.snapshot();
    }
    return this.blockOf(call);
  }

  /** Every call as a block, in order of index. */
  blocks(): ToolUseBlock[] {
    return this.ordered().map((call) => this.blockOf(call));
  }

  /** The stream has ended: every call is complete. */
  finish(): ToolUseBlock[] {
    for (const call of this.calls.values()) this.complete(call);
    return this.blocks();
  }

  /** The calls as history content, with the arguments as parsed (`{}` when they were not valid JSON). */
  toolUses(): ToolUseContent[] {
    return this.ordered().map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input }));
  }

  private ordered(): CallState[] {
    return [...this.calls.entries()].sort(([left], [right]) => left - right).map(([, call]) => call);
  }

  private open(chunk: ToolCallChunk): CallState {
    let id = chunk.id !== undefined && chunk.id !== "" ? chunk.id : this.generateId();
    // Ids must be unique within the message; some local servers number every call "call_0".
    if (this.usedIds.has(id)) id = `${id}_${chunk.index}`;
    while (this.usedIds.has(id)) id = this.generateId();
    this.usedIds.add(id);
    return {
      id,
      name: chunk.name ?? "",
      pieces: [],
      reader: new PartialJsonObjectReader(),
      partial: true,
      params: {},
      input: {},
    };
  }

  private complete(call: CallState): void {
    if (!call.partial) return;
    call.partial = false;
    const parsed = parseArguments(call.pieces.join(""));
    if (parsed.valid) {
      call.input = parsed.input;
      call.params = toStringParams(parsed.input);
    } else {
      call.input = {};
      call.params = { [invalidArgumentsParam]: parsed.raw };
    }
  }

  private blockOf(call: CallState): ToolUseBlock {
    return { type: "tool_use", id: call.id, name: call.name, params: Object.assign({}, call.params), partial: call.partial };
  }
}
