/**
 * Follows one task: its messages so far (`GET /api/tasks/:id`), then its
 * events (`GET /api/tasks/:id/events?after=SEQ`). The browser's EventSource
 * reconnects by itself with `Last-Event-ID`, and the server sends what was
 * missed. Events are folded as they come; the page redraws at most once per
 * frame and every `redrawEveryMs`, however many arrive: each redraw costs the
 * browser a layout and a paint whatever it adds, so a fast stream is drawn in
 * fewer, larger steps.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { TaskRow } from "./api-types.js";
import { api } from "./api.js";
import { TaskFeed } from "./task-feed.js";

/** The SSE event names the server may use; unnamed events arrive as `message`. */
const eventNames = ["message", "say", "ask", "truncate", "status", "answered", "state", "result"];

const redrawEveryMs = 100;
const reconnectAfterMs = 2000;

export interface FollowedTask {
  feed: TaskFeed;
  row: TaskRow | undefined;
  /** Bumped once per frame in which something changed. */
  version: number;
  connected: boolean;
  error: string | undefined;
}

export function useTaskFeed(taskId: string): FollowedTask {
  const feed = useRef<TaskFeed>(new TaskFeed());
  const [row, setRow] = useState<TaskRow | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    const current = new TaskFeed();
    feed.current = current;
    let source: EventSource | undefined;
    let frame: number | undefined;
    let timer: number | undefined;
    let lastRedraw = 0;
    let stopped = false;
    let retry: number | undefined;
    const draw = (): void => {
      frame = undefined;
      lastRedraw = performance.now();
      setVersion((value) => value + 1);
    };
    const redraw = (): void => {
      if (frame !== undefined || timer !== undefined) return;
      const wait = lastRedraw + redrawEveryMs - performance.now();
      if (wait <= 0) frame = requestAnimationFrame(draw);
      else
        timer = window.setTimeout(() => {
          timer = undefined;
          frame = requestAnimationFrame(draw);
        }, wait);
    };
    const onEvent = (event: MessageEvent<string>): void => {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof data !== "object" || data === null) return;
      const change = current.apply(data as Record<string, unknown>);
      if (change.message !== undefined || change.list === true || change.other === true) redraw();
    };
    /**
     * The browser reconnects by itself after a dropped connection; an answer
     * that is not a stream (the server starting again, or refusing the page)
     * closes the EventSource for good, so a new one is opened a little later,
     * from the last event seen.
     */
    const connect = (): void => {
      if (stopped) return;
      const opened = new EventSource(api.eventsUrl(taskId, current.seq));
      source = opened;
      opened.onopen = () => {
        setConnected(true);
        setError(undefined);
      };
      opened.onerror = () => {
        setConnected(false);
        if (opened.readyState !== EventSource.CLOSED) return;
        setError("Lost the server; trying again. If it was started again with a new token, open the URL it printed.");
        retry = window.setTimeout(connect, reconnectAfterMs);
      };
      for (const name of eventNames) opened.addEventListener(name, onEvent as EventListener);
    };
    void (async () => {
      try {
        const loaded = await api.task(taskId);
        if (stopped) return;
        setRow(loaded.task);
        for (const message of loaded.messages) current.apply(message);
        current.seq = Math.max(current.seq, loaded.seq);
        current.status = loaded.task.status;
        current.running = loaded.task.running;
        redraw();
      } catch (caught) {
        if (stopped) return;
        setError(caught instanceof Error ? caught.message : String(caught));
      }
      connect();
    })();
    return () => {
      stopped = true;
      window.clearTimeout(retry);
      source?.close();
      if (frame !== undefined) cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [taskId]);

  return { feed: feed.current, row, version, connected, error };
}
