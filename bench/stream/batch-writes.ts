/**
 * Makes every event-stream response of this process leave in blocks of at least
 * `bytes` (the last one smaller). cairn's scripted server writes one SSE frame per
 * write; read as fast as they come, those arrive one or a few per socket read, and
 * how many land in one read depends on how fast the client reads: a slower client
 * gets bigger batches and fewer reads. Measured with a floor slowed by a spin per
 * event, 10 µs an event cut its reads from 8,000-10,000 to about 700 and the rest
 * of its CPU time by about 100 ms. Fixed blocks give floor and cairn the same reads,
 * so neither is paid for being slow. Only the stream benchmark's server process
 * loads this.
 */
import { ServerResponse } from "node:http";

type Write = (this: ServerResponse, chunk: unknown, ...rest: unknown[]) => boolean;
type End = (this: ServerResponse, ...rest: unknown[]) => ServerResponse;

export function batchEventStreamWrites(bytes: number): void {
  const write = ServerResponse.prototype.write as unknown as Write;
  const end = ServerResponse.prototype.end as unknown as End;
  const pending = new WeakMap<ServerResponse, string>();
  const patchedWrite: Write = function (chunk, ...rest) {
    // The scripted server sets its headers with writeHead, which getHeader does not see: an SSE frame is known by its start.
    const isFrame = typeof chunk === "string" && (chunk.startsWith("event:") || chunk.startsWith("data:"));
    if (!isFrame) return write.call(this, chunk, ...rest);
    const callback = rest.find((argument): argument is () => void => typeof argument === "function");
    const buffered = (pending.get(this) ?? "") + chunk;
    if (buffered.length < bytes) {
      pending.set(this, buffered);
      // The server waits for each frame's callback before the next one.
      if (callback !== undefined) queueMicrotask(callback);
      return true;
    }
    pending.delete(this);
    return callback === undefined ? write.call(this, buffered) : write.call(this, buffered, callback);
  };
  const patchedEnd: End = function (...rest) {
    const buffered = pending.get(this);
    if (buffered !== undefined) {
      pending.delete(this);
      write.call(this, buffered);
    }
    return end.call(this, ...rest);
  };
  ServerResponse.prototype.write = patchedWrite;
  ServerResponse.prototype.end = patchedEnd;
}
