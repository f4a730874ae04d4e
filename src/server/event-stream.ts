/**
 * `GET /api/tasks/:id/events`: a task's events as server-sent events, from
 * after the last entry the client saw (`Last-Event-ID`, which browsers send
 * when they reconnect, or `?after=`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { keepAliveFrame } from "./event-frames.js";
import type { TaskChannel } from "./task-channel.js";
import { RequestError } from "./task-registry.js";

const keepAliveMs = 15_000;

export function followEvents(options: { channel: TaskChannel; request: IncomingMessage; response: ServerResponse; url: URL }): void {
  const { channel, request, response, url } = options;
  const after = afterOf(request.headers["last-event-id"], url.searchParams.get("after"));
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  // A browser waits this long before it reconnects after a drop.
  response.write("retry: 1000\n\n");
  const unsubscribe = channel.subscribe(after, {
    write: (frame) => {
      response.write(frame);
    },
    close: () => response.end(),
  });
  const keepAlive = setInterval(() => response.write(keepAliveFrame), keepAliveMs);
  keepAlive.unref();
  request.socket.setNoDelay(true);
  response.on("close", () => {
    clearInterval(keepAlive);
    unsubscribe();
  });
}

function afterOf(lastEventId: string | string[] | undefined, after: string | null): number {
  const given = typeof lastEventId === "string" && lastEventId !== "" ? lastEventId : after;
  if (given === null || given === "") return 0;
  const number = Number(given);
  if (!Number.isInteger(number) || number < 0) throw new RequestError(400, `the last event id must be a whole number (the "seq" of an event), not "${given}"`);
  return number;
}
