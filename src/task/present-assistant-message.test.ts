import { describe, expect, it } from "vitest";
import type { Block, ToolUseBlock } from "../parser/types.js";
import { TaskAbortedError } from "./errors.js";
import { presentAssistantMessage } from "./present-assistant-message.js";
import type { PresenterContext } from "./present-assistant-message.js";
import { StateLock } from "./state-lock.js";
import { StreamAssembler } from "./stream-assembler.js";
import { TaskState } from "./task-state.js";
import type { BlockList } from "./task-state.js";

/** A block list the test changes by hand, as the stream would. */
class Blocks implements BlockList {
  readonly items: Block[] = [];
  get length(): number {
    return this.items.length;
  }
  at(index: number): Block | undefined {
    return this.items[index];
  }
}

function fixture(options: { parallelTools?: boolean } = {}) {
  const lock = new StateLock();
  const taskState = new TaskState({ protocol: "xml", parallelTools: options.parallelTools ?? false, stateLock: lock });
  const blocks = new Blocks();
  const state = taskState.startRound(blocks);
  const events: string[] = [];
  let release: (() => void) | undefined;
  const context: PresenterContext = {
    taskState,
    parallelTools: options.parallelTools ?? false,
    say: (type, text, sayOptions) => {
      events.push(`say ${type} ${text}${sayOptions?.partial ? " (partial)" : ""}`);
      return "id";
    },
    textCleaner: () => (raw) => raw,
    presentPartialTool: (block) => events.push(`partial ${block.name}`),
    runTool: async (block) => {
      events.push(`run ${block.name} locked=${String(state.presentAssistantMessageLocked)}`);
      if (block.name === "slow") await new Promise<void>((resolve) => (release = resolve));
      await lock.withStateLock(() => state.applyToolRun({ block, status: "success", content: "ok", mutating: false, completed: false, repetition: "ok" }));
    },
    skipTool: async (block, reason) => {
      events.push(`skip ${block.name} ${reason}`);
    },
    presentAssistantMessage: () => presentAssistantMessage(context),
  };
  return { state, taskState, blocks, events, context, release: () => release?.() };
}

const tool = (name: string, partial = false): ToolUseBlock => ({ type: "tool_use", id: name, name, params: {}, partial });

describe("presentAssistantMessage", () => {
  it("P1, P13: each call advances one complete block and calls itself for the next one that exists", async () => {
    const { blocks, events, context, state } = fixture();
    blocks.items.push({ type: "text", content: "a", partial: false }, { type: "text", content: "b", partial: false });
    await presentAssistantMessage(context);
    expect(events).toEqual(["say text a", "say text b"]);
    expect(state.currentStreamingContentIndex).toBe(2);
  });

  it("P13: a partial block waits for the next stream callback instead of advancing", async () => {
    const { blocks, events, context, state } = fixture();
    blocks.items.push({ type: "text", content: "hel", partial: true });
    await presentAssistantMessage(context);
    expect(state.currentStreamingContentIndex).toBe(0);
    blocks.items[0] = { type: "text", content: "hello", partial: false };
    await presentAssistantMessage(context);
    expect(events).toEqual(["say text hel (partial)", "say text hello"]);
    expect(state.currentStreamingContentIndex).toBe(1);
  });

  it("P2, P3: while locked, calls only set pending; the run that holds the lock runs again", async () => {
    const { blocks, events, context, state, release } = fixture({ parallelTools: true });
    blocks.items.push(tool("slow"));
    const running = presentAssistantMessage(context);
    expect(state.presentAssistantMessageLocked).toBe(true);
    blocks.items.push({ type: "text", content: "after", partial: false });
    await presentAssistantMessage(context);
    await presentAssistantMessage(context);
    expect(state.presentAssistantMessageHasPendingUpdates).toBe(true);
    expect(events).toEqual(["run slow locked=true"]);
    release();
    await running;
    expect(events).toEqual(["run slow locked=true", "say text after"]);
    expect(state.presentAssistantMessageLocked).toBe(false);
  });

  it("P11: the lock is released before the method calls itself for the next block", async () => {
    const { blocks, events, context } = fixture({ parallelTools: true });
    blocks.items.push(tool("first"), tool("second"));
    await presentAssistantMessage(context);
    expect(events).toEqual(["run first locked=true", "run second locked=true"]);
  });

  it("P7: past the end means waiting, unless the stream is complete: then the user content is ready", async () => {
    const { blocks, context, state } = fixture();
    blocks.items.push({ type: "text", content: "a", partial: false });
    await presentAssistantMessage(context);
    expect(state.userMessageContentReady).toBe(false);
    await presentAssistantMessage(context);
    expect(state.userMessageContentReady).toBe(false);
    state.streamPhase = { kind: "complete" };
    await presentAssistantMessage(context);
    expect(state.userMessageContentReady).toBe(true);
  });

  it("P8: the abort flag is checked first, and the call throws", async () => {
    const { blocks, events, context, taskState } = fixture();
    blocks.items.push({ type: "text", content: "a", partial: false });
    taskState.abort = true;
    await expect(presentAssistantMessage(context)).rejects.toBeInstanceOf(TaskAbortedError);
    expect(events).toEqual([]);
  });

  it("P13: in serial mode, after a tool ran, a partial tool block is skipped and the index moves on", async () => {
    const { blocks, events, context, state } = fixture();
    blocks.items.push(tool("first"), tool("second", true));
    state.streamPhase = { kind: "complete" };
    await presentAssistantMessage(context);
    expect(events).toEqual(["run first locked=true", "skip second serial"]);
    expect(state.userMessageContentReady).toBe(true);
  });
});

describe("StreamAssembler (T7)", () => {
  it("T7: blocks change as chunks arrive; a tool block is complete before the answer ends", () => {
    const assembler = new StreamAssembler({ protocol: "xml", parser: {} });
    assembler.pushText("Reading. <read_fi");
    expect(assembler.toArray()).toEqual([{ type: "text", content: "Reading.", partial: true }]);
    assembler.pushText("le>\n<path>a.ts</path>\n</read_file> and more");
    const blocks = assembler.toArray();
    expect(blocks[1]).toMatchObject({ type: "tool_use", name: "read_file", params: { path: "a.ts" }, partial: false });
    expect(blocks[2]).toMatchObject({ type: "text", partial: true });
    assembler.finish();
    expect(assembler.toArray().every((block) => !block.partial)).toBe(true);
  });
});

describe("StateLock (T8)", () => {
  it("T8: critical sections never interleave, and run in the order they asked", async () => {
    const lock = new StateLock();
    const trace: string[] = [];
    const section = (name: string, pause: number) =>
      lock.withStateLock(async () => {
        trace.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, pause));
        trace.push(`${name} out`);
      });
    await Promise.all([section("a", 20), section("b", 1), section("c", 5)]);
    expect(trace).toEqual(["a in", "a out", "b in", "b out", "c in", "c out"]);
  });
});
