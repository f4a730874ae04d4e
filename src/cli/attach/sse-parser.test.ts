import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.js";

const stream = 'id: 1\ndata: {"type":"say","text":"a"}\n\n: keep-alive\n\ndata: {"type":"say",\ndata: "delta":"b"}\n\nevent: state\nid: 2\r\ndata: {"type":"state"}\r\n\r\n';

describe("reading server-sent events", () => {
  it("gives each event with its data lines joined, its id when it has one, and skips comments", () => {
    const events = new SseParser().push(stream);
    expect(events).toEqual([
      { event: "message", data: '{"type":"say","text":"a"}', id: "1" },
      { event: "message", data: '{"type":"say",\n"delta":"b"}' },
      { event: "state", data: '{"type":"state"}', id: "2" },
    ]);
  });

  it("gives the same events however the stream is cut into chunks, a CRLF split between two chunks included", () => {
    const whole = new SseParser().push(stream);
    for (let size = 1; size <= 7; size += 1) {
      const parser = new SseParser();
      const events = [];
      for (let start = 0; start < stream.length; start += size) events.push(...parser.push(stream.slice(start, start + size)));
      expect(events).toEqual(whole);
    }
  });

  it("keeps an event that has not ended for the next chunk, and reads the server's retry delay", () => {
    const parser = new SseParser();
    expect(parser.push("retry: 1500\ndata: half")).toEqual([]);
    expect(parser.retryMs).toBe(1500);
    expect(parser.push(" and the rest\n\n")).toEqual([{ event: "message", data: "half and the rest" }]);
  });
});
