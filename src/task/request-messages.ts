/**
 * Each model request's `api_req_started` message (SPEC T12): shown as partial
 * when the request starts, and finished once with its tokens and cost, or with
 * its cancel reason. Counts the requests of this run.
 */
import type { ApiRequestMeta } from "./contracts/message-meta.js";

export class RequestMessages {
  private counter = 0;
  private current: string | undefined;

  constructor(private readonly say: (key: string, meta?: ApiRequestMeta) => void) {}

  /** Requests started in this run. */
  get count(): number {
    return this.counter;
  }

  /** A request's message is open (from its start to its end). */
  get open(): boolean {
    return this.current !== undefined;
  }

  start(): void {
    this.counter += 1;
    this.current = `api_req:${this.counter}`;
    this.say(this.current);
  }

  /** Ends the open message with `meta`; nothing when none is open. */
  finish(meta: () => ApiRequestMeta): void {
    if (this.current === undefined) return;
    this.say(this.current, meta());
    this.current = undefined;
  }
}
