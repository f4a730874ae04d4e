import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Block } from "../parser/types.js";
import { PresentationFrame } from "./presentation-frame.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function blocks(list: Block[]) {
  return {
    get length() {
      return list.length;
    },
    at: (index: number) => list[index],
  };
}

describe("PresentationFrame presents growing text once per frame and a completed block at once (SPEC P4)", () => {
  it("presents growth at most once per frame, and the last growth at the frame's end", () => {
    const text: Block = { type: "text", content: "a", partial: true };
    let presented = 0;
    const frame = new PresentationFrame({ blocks: blocks([text]), present: () => void (presented += 1), frameMs: 16 });
    frame.changed(); // a new block: at once
    expect(presented).toBe(1);
    for (let delta = 0; delta < 50; delta += 1) {
      text.content += "b";
      frame.changed();
    }
    expect(presented).toBe(1);
    vi.advanceTimersByTime(16);
    expect(presented).toBe(2);
    vi.advanceTimersByTime(100); // nothing grew: nothing more
    expect(presented).toBe(2);
  });

  it("a block that completes or a new block is presented at once, inside a frame too", () => {
    const list: Block[] = [{ type: "text", content: "a", partial: true }];
    let presented = 0;
    const frame = new PresentationFrame({ blocks: blocks(list), present: () => void (presented += 1), frameMs: 16 });
    frame.changed();
    list.push({ type: "tool_use", id: "t1", name: "read_file", params: {}, partial: true });
    frame.changed();
    expect(presented).toBe(2);
    list[1]!.partial = false; // the call's last delta
    frame.changed();
    expect(presented).toBe(3);
  });

  it("after stop, a running frame presents nothing (the Task presents the final state)", () => {
    const text: Block = { type: "text", content: "a", partial: true };
    let presented = 0;
    const frame = new PresentationFrame({ blocks: blocks([text]), present: () => void (presented += 1), frameMs: 16 });
    frame.changed();
    frame.changed();
    frame.stop();
    vi.advanceTimersByTime(50);
    expect(presented).toBe(1);
  });
});
