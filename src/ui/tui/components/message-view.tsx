import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { AskResponse, UiMessage } from "../../../task/contracts/messages.js";
import { parseMarkdownLines } from "../markdown.js";
import type { MarkdownLine, MarkdownState } from "../markdown.js";
import { cardMetaOf, metaOf } from "../../../task/contracts/message-meta.js";
import { cleanLine, countLines, lastLines, tailOfLine } from "../terminal-text.js";
import type { LiveItem, StaticItem } from "../transcript.js";
import { RetryCountdown, RetryNote } from "./activity.js";
import { CommandOutputView } from "./command-output-view.js";
import { MarkdownView } from "./markdown-view.js";
import { ToolCard } from "./tool-card.js";
import { splitAttachedContext } from "../attached-context.js";

/** Limits for the re-rendered (live) area, which must stay shorter than the screen. */
export interface LiveLimits {
  markdownLines: number;
  diffLines: number;
  outputLines: number;
}

const printedLimits: LiveLimits = { markdownLines: Number.POSITIVE_INFINITY, diffLines: 200, outputLines: 20 };

function CompletionHeader(): ReactNode {
  return (
    <Text color="green" bold>
      {"✓ Task completed"}
    </Text>
  );
}

function Reasoning({ message, width }: { message: UiMessage; width: number }): ReactNode {
  const text = message.text.replace(/^\s+/, "");
  const newline = text.indexOf("\n");
  const first = cleanLine(newline === -1 ? text : text.slice(0, newline));
  const lines = countLines(text);
  const size = lines > 1 ? ` (${lines} lines)` : "";
  return (
    <Box width={width}>
      <Text dimColor italic wrap="truncate-end">
        {`✻ ${message.partial ? "Thinking… " : ""}${first}${size}`}
      </Text>
    </Box>
  );
}

/** How the user answered; a typed reply is not repeated (the Task says it as `user_feedback`). */
function AnswerLine({ answer }: { answer: AskResponse | undefined }): ReactNode {
  if (answer === undefined || answer.response === "message") return null;
  if (answer.response === "no" && answer.preview === true) return <Text color="cyan">{"  → preview (nothing lands until you apply it)"}</Text>;
  return answer.response === "yes" ? <Text color="green">{"  ✓ approved"}</Text> : <Text color="red">{"  ✗ rejected"}</Text>;
}

function firstLines(text: string, count: number): string {
  // split's limit is a 32-bit count: Infinity would read as 0.
  const lines = Number.isFinite(count) ? text.split("\n", count + 1) : text.split("\n");
  const shown = lines.slice(0, count).map(cleanLine).join("\n");
  return lines.length > count ? `${shown}\n…` : shown;
}

function Plain({ text, colour, prefix, maxLines = 12 }: { text: string; colour?: string; prefix: string; maxLines?: number }): ReactNode {
  return <Text {...(colour === undefined ? {} : { color: colour })}>{`${prefix}${firstLines(text, maxLines)}`}</Text>;
}

/** Markdown for a whole message (asks with a question or plan), cut to its last lines. */
function MarkdownText({ text, width, maxLines }: { text: string; width: number; maxLines: number }): ReactNode {
  const lines = Number.isFinite(maxLines) ? lastLines(text, maxLines).lines : text.split("\n");
  const parsed = parseMarkdownLines(lines, { fence: undefined });
  return <MarkdownView lines={parsed.lines} width={width} />;
}

/** Tools whose own ask (question, plan, completion) shows the same text again. */
const shownByTheirAsk: ReadonlySet<string> = new Set(["ask_followup_question", "plan_mode_respond", "attempt_completion"]);

/**
 * A final tool `say` that an ask repeats (approval "ask"), or the preview of a
 * question that its followup ask shows: printed once, by the ask.
 */
function hiddenWhenPrinted(message: UiMessage): boolean {
  const meta = cardMetaOf(message);
  if (meta === undefined) return false;
  if (meta.status === "error") return false; // a failure is shown on the card, whoever asked
  return meta.approval === "ask" || shownByTheirAsk.has(meta.tool);
}

interface BodyProps {
  message: UiMessage;
  width: number;
  limits: LiveLimits;
  live: boolean;
  answer: AskResponse | undefined;
}

/** Every message kind except streamed answers (those are printed line by line). */
function MessageBody({ message, width, limits, live, answer }: BodyProps): ReactNode {
  if (message.type === "ask") {
    switch (message.ask) {
      case "tool":
      case "command":
      case "use_mcp_server":
        return (
          <Box flexDirection="column">
            <ToolCard message={message} width={width} maxDiffLines={limits.diffLines} />
            <AnswerLine answer={answer} />
          </Box>
        );
      case "completion_result":
        return <AnswerLine answer={answer} />;
      default:
        return (
          <Box flexDirection="column">
            {message.text.trim() === "" ? null : <MarkdownText text={message.text} width={width} maxLines={limits.markdownLines} />}
            <AnswerLine answer={answer} />
          </Box>
        );
    }
  }
  switch (message.say) {
    case "text":
    case "completion_result":
      return null;
    case "reasoning":
      return <Reasoning message={message} width={width} />;
    case "tool":
    case "command":
      return hiddenWhenPrinted(message) && !live ? null : <ToolCard message={message} width={width} maxDiffLines={limits.diffLines} />;
    case "command_output":
      return <CommandOutputView message={message} width={width} maxLines={limits.outputLines} />;
    case "task":
    case "user_feedback": {
      const { typed, attached } = splitAttachedContext(message.text);
      const line = <Plain text={typed} prefix="› " colour={message.say === "task" ? "whiteBright" : "cyan"} />;
      return attached.length === 0 ? (
        line
      ) : (
        <Box flexDirection="column">
          {line}
          <Text color="gray">{`  + attached: ${attached.join(", ")}`}</Text>
        </Box>
      );
    }
    case "error":
    case "diff_error":
      return <Plain text={message.text} prefix="✗ " colour="red" />;
    case "error_retry":
      return live ? <RetryCountdown message={message} /> : <RetryNote message={message} />;
    case "warning":
      return <Plain text={message.text} prefix="⚠ " colour="yellow" />;
    case "checkpoint_created": {
      const hash = metaOf(message, "checkpoint_created")?.hash ?? message.text;
      return <Text color="gray">{`◇ Checkpoint ${hash.slice(0, 12)}`}</Text>;
    }
    case "api_req_retried":
      return <Text color="gray">{"↻ Retrying the request"}</Text>;
    case "empty_assistant_message":
      return <Text color="gray">{"(the model sent an empty response)"}</Text>;
    case "mcp_server_response":
      return <Plain text={lastLines(message.text, limits.outputLines).lines.join("\n")} prefix="  " colour="gray" />;
    case "hook_status":
      return <Plain text={message.text} prefix="hook: " colour="gray" />;
    case "tool_result":
      return null; // an editor's (ACP) record of how a tool ended; the tool's card already shows it
    default:
      // cairn's own notes (/help, /history, ...) are printed whole: the terminal scrolls them.
      // While still live (re-rendered in place) they stay shorter than the screen.
      return <Plain text={message.text} prefix="" colour="gray" maxLines={live ? limits.markdownLines : Number.POSITIVE_INFINITY} />;
  }
}

function Markdown({ lines, width, say, first, maxRows }: { lines: MarkdownLine[]; width: number; say: string; first: boolean; maxRows?: number }): ReactNode {
  return (
    <Box flexDirection="column" width={width} marginTop={first ? 1 : 0}>
      {first && say === "completion_result" ? <CompletionHeader /> : null}
      <MarkdownView lines={lines} width={width} {...(maxRows === undefined ? {} : { maxRows })} />
    </Box>
  );
}

/** One item of the printed history (rendered once). */
export function PrintedItem({ item, width }: { item: StaticItem; width: number }): ReactNode {
  if (item.kind === "markdown") return <Markdown lines={item.lines} width={width} say={item.say} first={item.first} />;
  const message = item.message;
  if (message.type === "say" && (message.say === "tool" || message.say === "command") && hiddenWhenPrinted(message)) {
    return null;
  }
  if (message.type === "ask" && message.ask === "completion_result") return null;
  return (
    <Box width={width} flexDirection="column" marginTop={1}>
      <MessageBody message={item.message} width={width} limits={printedLimits} live={false} answer={item.answer} />
    </Box>
  );
}

function liveMarkdown(text: string, state: MarkdownState, width: number, maxLines: number): MarkdownLine[] {
  const { lines } = lastLines(text, maxLines);
  // A partial last line can be a whole answer without newlines: keep its end.
  const shown = lines.map((line) => tailOfLine(line, width * 4));
  return parseMarkdownLines(shown, state).lines;
}

/** One message that may still change (re-rendered with every frame). */
export function LiveMessage({ item, width, limits }: { item: LiveItem; width: number; limits: LiveLimits }): ReactNode {
  const message = item.message;
  if (message.type === "say" && (message.say === "text" || message.say === "completion_result")) {
    const rest = message.text.slice(item.printedLength);
    if (rest === "") return null;
    const lines = liveMarkdown(rest, item.markdownState, width, limits.markdownLines);
    return <Markdown lines={lines} width={width} say={message.say} first={item.printedLength === 0} maxRows={limits.markdownLines} />;
  }
  return (
    <Box width={width} flexDirection="column" marginTop={1}>
      <MessageBody message={message} width={width} limits={limits} live answer={undefined} />
    </Box>
  );
}
