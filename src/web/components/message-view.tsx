/** One message of the transcript, drawn by its kind (src/task/contracts/messages.ts). */
import { Component } from "preact";
import type { JsonMessage } from "../../ui/headless/json-events-reader.js";
import { clientName } from "../api.js";
import type { Answer } from "../task-feed.js";
import { StreamingMarkdown, StreamingText } from "./streaming-markdown.js";
import { ToolCardView } from "./tool-card.js";

/** Kinds the transcript does not show as messages (their content shows elsewhere: costs, the checklist, the cards). */
const hidden = new Set(["api_req_started", "api_req_retried", "checklist", "tool_result", "empty_assistant_message"]);
const cardKinds = new Set(["tool", "command", "use_mcp_server"]);
const notices = new Set(["error", "warning", "budget", "diff_error", "error_retry", "api_req_failed", "mistake_limit_reached"]);
const quiet = new Set(["info", "condense", "hook_status", "mcp_notification", "mcp_server_response", "checkpoint_created", "resume_task", "resume_completed_task"]);

/** Whether the transcript shows `message`: a card the approval then asks again is shown once, as the ask. */
export function shown(message: JsonMessage): boolean {
  const kind = message.say ?? message.ask ?? "";
  if (message.type === "say" && hidden.has(kind)) return false;
  if (message.type === "say" && cardKinds.has(kind) && !message.partial && message.meta?.["approval"] === "ask") return false;
  return true;
}

interface Props {
  message: JsonMessage;
  revision: number;
  answer: Answer | undefined;
  answered: boolean;
}

function answerLine(answer: Answer | undefined): string {
  if (answer === undefined) return "answered";
  const response = answer.response === "message" ? `“${answer.text ?? ""}”` : answer.response;
  const by = answer.by === undefined ? "" : answer.by === clientName ? " here" : ` in another client (${answer.by})`;
  return `answered${by}: ${response}`;
}

export class MessageView extends Component<Props> {
  override shouldComponentUpdate(next: Props): boolean {
    return next.revision !== this.props.revision || next.answer !== this.props.answer || next.answered !== this.props.answered || next.message !== this.props.message;
  }

  render() {
    const { message, revision } = this.props;
    const kind = message.say ?? message.ask ?? "";
    const markdown = <StreamingMarkdown text={message.text} partial={message.partial} revision={revision} />;
    const answered = message.type === "ask" && this.props.answered ? <div class="answered">{answerLine(this.props.answer)}</div> : null;
    const common = { "data-id": message.id, "data-kind": `${message.type}:${kind}` };
    if (message.type === "say" && (kind === "task" || kind === "user_feedback"))
      return (
        <div class="msg user" {...common}>
          {message.text}
        </div>
      );
    if (kind === "text")
      return (
        <div class="msg text" {...common}>
          {markdown}
        </div>
      );
    if (kind === "reasoning")
      return (
        <details class="msg reasoning" {...common}>
          <summary>Reasoning{message.partial ? "…" : ` · ${message.text.length.toLocaleString()} characters`}</summary>
          {markdown}
        </details>
      );
    if (kind === "command_output")
      return (
        <div class="msg" {...common}>
          <StreamingText text={message.text} partial={message.partial} revision={revision} limit={100_000} />
        </div>
      );
    if (cardKinds.has(kind))
      return (
        <div class="msg" {...common}>
          <ToolCardView message={message} />
          {answered}
        </div>
      );
    if (kind === "completion_result" || kind === "plan_mode_respond" || kind === "followup")
      return (
        <div class={`msg ${kind === "followup" ? "question" : "result"}`} {...common}>
          {message.type === "ask" && kind === "completion_result" ? null : markdown}
          {message.type === "ask" && kind === "completion_result" && <div class="muted">Is the task done?</div>}
          {answered}
        </div>
      );
    if (notices.has(kind))
      return (
        <div class={`msg notice${kind === "error_retry" ? "" : " bad"}`} {...common}>
          {message.text}
          {answered}
        </div>
      );
    if (quiet.has(kind))
      return (
        <div class="msg quiet" {...common}>
          {kind === "checkpoint_created" ? `checkpoint ${(typeof message.meta?.["hash"] === "string" ? message.meta["hash"] : "").slice(0, 8)}` : message.text}
          {answered}
        </div>
      );
    return (
      <div class="msg" {...common}>
        {markdown}
        {answered}
      </div>
    );
  }
}
