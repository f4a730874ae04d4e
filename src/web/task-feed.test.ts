import { describe, expect, it } from "vitest";
import { TaskFeed } from "./task-feed.js";

const say = (id: string, fields: Record<string, unknown>) => ({ type: "say", id, ts: 1, taskId: "t1", partial: false, ...fields });

describe("TaskFeed", () => {
  it("folds messages as --json lines fold: a whole message replaces, a delta appends", () => {
    const feed = new TaskFeed();
    expect(feed.apply(say("m1", { say: "text", text: "Hel", partial: true, seq: undefined }))).toEqual({ message: "m1", list: true });
    expect(feed.apply({ type: "say", id: "m1", delta: "lo", partial: true })).toEqual({ message: "m1" });
    expect(feed.message("m1")).toMatchObject({ text: "Hello", partial: true });
    feed.apply(say("m1", { say: "text", text: "Hello.", seq: 3 }));
    expect(feed.messages.map((message) => [message.id, message.text, message.partial])).toEqual([["m1", "Hello.", false]]);
    expect(feed.revisions.get("m1")).toBe(3);
    expect(feed.seq).toBe(3);
  });

  it("keeps the state, the totals and the result beside the messages", () => {
    const feed = new TaskFeed();
    feed.apply({ type: "state", running: true, status: "running", openAsk: null, seq: 7 });
    feed.apply({ type: "status", status: "running", tokensIn: 1200, tokensOut: 40, cost: 0.01, seq: 8 });
    expect(feed).toMatchObject({ running: true, status: "running", seq: 8, totals: { tokensIn: 1200, tokensOut: 40, cost: 0.01 } });
    feed.apply({ type: "result", status: "completed", exitStatus: 0 });
    expect(feed).toMatchObject({ running: false, status: "completed", result: { exitStatus: 0 } });
  });

  it("shows the ask the state names as open until an answer comes, from this client or another", () => {
    const feed = new TaskFeed();
    feed.apply({ type: "ask", ask: "tool", id: "a1", ts: 1, taskId: "t1", text: "", partial: false, meta: { tool: "write_to_file", path: "x", diff: "+x" } });
    feed.apply({ type: "state", running: true, status: "running", openAsk: "a1", seq: 2 });
    expect(feed.openAskMessage()?.id).toBe("a1");
    expect(feed.isAnswered(feed.message("a1")!)).toBe(false);
    feed.apply({ type: "answered", askId: "a1", response: "yes", by: "client 2" });
    expect(feed.openAskMessage()).toBeUndefined();
    expect(feed.isAnswered(feed.message("a1")!)).toBe(true);
    expect(feed.answers.get("a1")).toEqual({ response: "yes", by: "client 2" });
  });

  it("takes an open ask given only as 'there is one' to be the last final ask nobody answered", () => {
    const feed = new TaskFeed();
    feed.apply({ type: "ask", ask: "followup", id: "q", ts: 1, taskId: "t1", text: "Which one?", partial: false });
    feed.apply({ type: "state", running: true, status: "running", openAsk: true });
    expect(feed.openAskMessage()?.id).toBe("q");
    feed.apply({ type: "state", running: true, status: "running", openAsk: false });
    expect(feed.openAskMessage()).toBeUndefined();
  });

  it("drops the messages a restore took back", () => {
    const feed = new TaskFeed();
    for (const id of ["m1", "m2", "m3"]) feed.apply(say(id, { say: "text", text: id }));
    expect(feed.apply({ type: "truncate", count: 1, seq: 9 })).toEqual({ list: true, other: true });
    expect(feed.messages.map((message) => message.id)).toEqual(["m1"]);
    feed.apply(say("m2", { say: "text", text: "again" }));
    expect(feed.messages.map((message) => message.text)).toEqual(["m1", "again"]);
  });
});
