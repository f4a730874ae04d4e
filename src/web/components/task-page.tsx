/** One task, live: its transcript, the open ask, costs and context, the checklist, checkpoints, and its controls. */
import { useEffect, useRef, useState } from "preact/hooks";
import type { JsonMessage } from "../../ui/headless/json-events-reader.js";
import { api } from "../api.js";
import { growEvent } from "../markdown-dom.js";
import { formatCost, formatTokens, shownStatus } from "../format.js";
import { useTaskFeed } from "../use-task-feed.js";
import { AskPanel } from "./ask-panel.js";
import { Checkpoints } from "./checkpoints.js";
import { MessageView, shown } from "./message-view.js";

/** Statuses a task stopped in before its end (a completed task goes on with a message instead). */
const resumable = new Set(["aborted", "interrupted", "failed", "budget"]);

interface Derived {
  context: { tokens: number; window: number } | undefined;
  checklist: Array<{ text: string; done: boolean }> | undefined;
  checkpoints: number;
}

/** What the side panel shows, read from the messages (the last request's context, the last checklist). */
function derive(messages: readonly JsonMessage[]): Derived {
  const derived: Derived = { context: undefined, checklist: undefined, checkpoints: 0 };
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.say === "checkpoint_created") derived.checkpoints += 1;
    const meta = message.meta;
    if (meta === undefined) continue;
    if (derived.context === undefined && message.say === "api_req_started" && typeof meta["contextTokens"] === "number" && typeof meta["contextWindow"] === "number")
      derived.context = { tokens: meta["contextTokens"], window: meta["contextWindow"] };
    if (derived.checklist === undefined && message.say === "checklist" && Array.isArray(meta["items"])) derived.checklist = meta["items"] as Array<{ text: string; done: boolean }>;
  }
  return derived;
}

let scrollFrame: number | undefined;
let scrolledTo = -1;

/**
 * Scrolls to the end at the start of the next frame, before anything changes
 * the page in it: the layout is then the one just drawn, and reading the
 * page's height costs nothing (right after a change, it would lay the page
 * out an extra time). Until the height stops changing it looks again the
 * frame after: parts of a long answer the browser draws only once they come
 * near the screen (markdown-dom.ts) take their real height after the scroll.
 */
function scrollToEnd(follow: () => boolean): void {
  scrollFrame ??= requestAnimationFrame(() => {
    scrollFrame = undefined;
    if (!follow()) return;
    const height = document.documentElement.scrollHeight;
    window.scrollTo(0, height);
    if (height !== scrolledTo) scrollToEnd(follow);
    scrolledTo = height;
  });
}

/**
 * Keeps the newest message in view while the reader is at the bottom. Only the
 * reader's own scrolling (wheel, touch, keys, the scroll bar) lets go: the
 * browser's own scroll adjustments while content grows do not.
 */
function useStickToBottom(version: number): void {
  const stick = useRef(true);
  const lastInput = useRef(0);
  const follow = (): boolean => stick.current;
  useEffect(() => {
    const onInput = (): void => {
      lastInput.current = Date.now();
    };
    const onScroll = (): void => {
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 120;
      if (atBottom || Date.now() - lastInput.current < 1000) stick.current = atBottom;
    };
    const inputs = ["wheel", "touchmove", "keydown", "pointerdown"] as const;
    for (const name of inputs) window.addEventListener(name, onInput, { passive: true });
    // A long answer is drawn over several frames after the page's own redraw (markdown-dom.ts): each
    // scrolls as it adds lines, so the frame lays the page out once more at most, already scrolled.
    const onGrow = (): void => {
      if (!stick.current) return;
      window.scrollTo(0, document.documentElement.scrollHeight);
      scrollToEnd(follow);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    document.addEventListener(growEvent, onGrow);
    return () => {
      for (const name of inputs) window.removeEventListener(name, onInput);
      window.removeEventListener("scroll", onScroll);
      document.removeEventListener(growEvent, onGrow);
    };
  }, []);
  useEffect(() => {
    if (stick.current) scrollToEnd(follow);
  }, [version]);
}

/** Plan or act for the running task, for every client (`POST /api/tasks/:id/mode`); the server's events say which is on. */
function ModeSwitch({ mode, onSwitch }: { mode: "plan" | "act"; onSwitch: (mode: "plan" | "act") => void }) {
  return (
    <div class="mode-switch" role="group" aria-label="Mode" title="Plan: the model explores and plans with read-only tools. Act: it changes things. The next request uses it.">
      {(["plan", "act"] as const).map((choice) => (
        <button key={choice} type="button" aria-pressed={mode === choice} class={mode === choice ? "on" : ""} onClick={() => mode !== choice && onSwitch(choice)}>
          {choice === "plan" ? "Plan" : "Act"}
        </button>
      ))}
    </div>
  );
}

export function TaskPage({ taskId }: { taskId: string }) {
  const { feed, row, version, connected, error } = useTaskFeed(taskId);
  const [draft, setDraft] = useState("");
  const [note, setNote] = useState<string | undefined>(undefined);
  useStickToBottom(version);
  const messages = feed.messages;
  const derived = derive(messages);
  const ask = feed.openAskMessage();
  const status = shownStatus(feed.status, feed.running);
  const totals = feed.totals ?? (row === undefined ? undefined : { tokensIn: row.tokensIn, tokensOut: row.tokensOut, cost: row.cost });
  const act = (action: () => Promise<unknown>, done?: string): void => {
    setNote(undefined);
    action().then(
      () => done !== undefined && setNote(done),
      (caught: unknown) => setNote(caught instanceof Error ? caught.message : String(caught)),
    );
  };

  return (
    <div class="task-page" data-status={status} data-running={String(feed.running)}>
      <header class="task-head">
        <h1>{row?.title ?? taskId}</h1>
        <div class="task-meta">
          <span class={`badge s-${status}`}>{status || "…"}</span>
          {totals !== undefined && (
            <span class="totals" title="tokens in · out · cost">
              {formatTokens(totals.tokensIn)} in · {formatTokens(totals.tokensOut)} out · {formatCost(totals.cost)}
            </span>
          )}
          {derived.context !== undefined && (
            <span class="context" title="context window">
              context {formatTokens(derived.context.tokens)} / {formatTokens(derived.context.window)}
              <meter min={0} max={derived.context.window} value={derived.context.tokens} />
            </span>
          )}
          {!connected && <span class="tag warn">reconnecting…</span>}
        </div>
        <div class="controls">
          {feed.running && <ModeSwitch mode={feed.mode ?? row?.mode ?? "act"} onSwitch={(mode) => act(() => api.setMode(taskId, mode))} />}
          {feed.running ? <button onClick={() => act(() => api.abort(taskId), "Stopped.")}>Stop</button> : resumable.has(status) && <button onClick={() => act(() => api.resume(taskId), "Resumed.")}>Resume</button>}
        </div>
        {(error ?? note) !== undefined && <div class="note">{error ?? note}</div>}
      </header>
      <div class="task-body">
        <main class="transcript" aria-live="polite">
          {messages.filter(shown).map((message) => (
            <MessageView key={message.id} message={message} revision={feed.revisions.get(message.id) ?? 0} answer={feed.answers.get(message.id)} answered={message.type === "ask" && feed.isAnswered(message)} />
          ))}
          {ask !== undefined && <AskPanel key={ask.id} taskId={taskId} ask={ask} />}
          <form
            class="composer"
            onSubmit={(event) => {
              event.preventDefault();
              const text = draft.trim();
              if (text === "") return;
              act(() => api.send(taskId, text).then(() => setDraft("")), feed.running ? "Sent: the model reads it at its next tool boundary." : undefined);
            }}
          >
            <textarea rows={2} placeholder={feed.running ? "A message for the model (read at its next step)" : "Continue the task with a message"} value={draft} onInput={(event) => setDraft(event.currentTarget.value)} />
            <button type="submit" disabled={draft.trim() === ""}>
              Send
            </button>
          </form>
        </main>
        <aside class="side">
          {derived.checklist !== undefined && (
            <section class="panel checklist" aria-label="Checklist">
              <h2>
                Checklist {derived.checklist.filter((item) => item.done).length}/{derived.checklist.length}
              </h2>
              <ul>
                {derived.checklist.map((item, index) => (
                  <li key={index} class={item.done ? "done" : ""}>
                    {item.done ? "☑" : "☐"} {item.text}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Checkpoints taskId={taskId} refresh={derived.checkpoints + (feed.running ? 0 : 1)} />
        </aside>
      </div>
    </div>
  );
}
