import { describe, expect, it } from "vitest";
import type { MarkdownFormatter } from "./markdown-formatter.js";
import { PrintQueue } from "./print-queue.js";

const noFormatter: MarkdownFormatter = { format: () => Promise.reject(new Error("not used")), close: async () => undefined };

function later(): { promise: Promise<string>; resolve: (text: string) => void } {
  let resolve!: (text: string) => void;
  const promise = new Promise<string>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe("the printed history formatted elsewhere", () => {
  it("is written in the order it was printed, whichever text is ready first", async () => {
    const written: string[] = [];
    const queue = new PrintQueue(noFormatter, () => undefined);
    const [first, second, third] = [later(), later(), later()];
    for (const each of [first, second, third])
      queue.enqueue(
        each.promise,
        (text) => written.push(text),
        () => true,
      );
    third.resolve("three\n");
    second.resolve("two\n");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(written).toEqual([]);
    first.resolve("one\n");
    await queue.drained();
    expect(written).toEqual(["one\n", "two\n", "three\n"]);
  });

  it("drops text of an earlier width (printed again after the resize) and writes nothing for empty text", async () => {
    const written: string[] = [];
    const queue = new PrintQueue(noFormatter, () => undefined);
    let generation = 1;
    const old = later();
    queue.enqueue(
      old.promise,
      (text) => written.push(text),
      () => generation === 1,
    );
    queue.enqueue(
      Promise.resolve(""),
      (text) => written.push(text),
      () => true,
    );
    generation = 2;
    queue.enqueue(
      Promise.resolve("again\n"),
      (text) => written.push(text),
      () => generation === 2,
    );
    old.resolve("old width\n");
    await queue.drained();
    expect(written).toEqual(["again\n"]);
  });

  it("writes what is still on its way to the terminal itself once the UI has gone", async () => {
    const written: string[] = [];
    const direct: string[] = [];
    const queue = new PrintQueue(noFormatter, (text) => direct.push(text));
    const pending = later();
    queue.enqueue(
      Promise.resolve("before\n"),
      (text) => written.push(text),
      () => true,
    );
    queue.enqueue(
      pending.promise,
      (text) => written.push(text),
      () => true,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    queue.uiGone();
    pending.resolve("after\n");
    await queue.drained();
    expect(written).toEqual(["before\n"]);
    expect(direct).toEqual(["after\n"]);
  });
});
