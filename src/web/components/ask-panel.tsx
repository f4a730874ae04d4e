/** The open ask, answered from here (`POST /api/tasks/:id/answer`); another client's answer closes it (the `answered` event). */
import { useState } from "preact/hooks";
import type { JsonMessage } from "../../ui/headless/json-events-reader.js";
import { api, ApiError } from "../api.js";
import { askButtons, type AskButton } from "../ask-answers.js";
import { cardMetaOf } from "../../task/contracts/message-meta.js";
import { asUiMessage, cardTitle } from "./tool-card.js";

export function AskPanel({ taskId, ask }: { taskId: string; ask: JsonMessage }) {
  const { buttons, options, typed } = askButtons(ask);
  const card = ask.ask === "followup" || ask.ask === "completion_result" || ask.ask === "elicitation" ? undefined : cardMetaOf(asUiMessage(ask));
  const [replying, setReplying] = useState<AskButton | undefined>(typed ? buttons.find((button) => button.withText) : undefined);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const answer = async (button: AskButton, withText?: string): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await api.answer(taskId, { askId: ask.id, response: button.response, ...(withText === undefined ? {} : { text: withText }), ...(button.always === undefined ? {} : { always: button.always }) });
      setText("");
    } catch (caught) {
      setError(caught instanceof ApiError && caught.status === 409 ? "Already answered elsewhere." : caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="ask" aria-label="The task is waiting for you" data-ask={ask.ask ?? ""}>
      <div class="ask-title">{ask.ask === "completion_result" ? "The task says it is done" : ask.ask === "followup" ? "A question for you" : ask.ask === "elicitation" ? "An MCP server asks" : "Approve?"}</div>
      <div class="ask-what">{card !== undefined ? cardTitle(card) : ask.text.length > 400 ? `${ask.text.slice(0, 400)}…` : ask.text}</div>
      {options.length > 0 && (
        <div class="ask-options">
          {options.map((option) => (
            <button key={option} disabled={busy} onClick={() => void answer({ label: option, response: "message", withText: true }, option)}>
              {option}
            </button>
          ))}
        </div>
      )}
      <div class="ask-buttons">
        {buttons
          .filter((button) => !(typed && button.withText))
          .map((button) => (
            <button key={button.label} class={button.response === "yes" ? "primary" : ""} disabled={busy} onClick={() => (button.withText ? setReplying(button) : void answer(button))}>
              {button.label}
            </button>
          ))}
      </div>
      {replying !== undefined && (
        <form
          class="reply"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() !== "") void answer(replying, text);
          }}
        >
          <textarea rows={2} placeholder={typed ? "Your answer" : "What should cairn do instead?"} value={text} onInput={(event) => setText(event.currentTarget.value)} />
          <button type="submit" disabled={busy || text.trim() === ""}>
            Send
          </button>
        </form>
      )}
      {error !== undefined && <div class="error">{error}</div>}
    </section>
  );
}
