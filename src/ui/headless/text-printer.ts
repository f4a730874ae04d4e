/**
 * The task as readable text for a person watching a terminal or reading a CI
 * log, and for a program reading the answer: stdout carries exactly the
 * answer's text (the model's text and the result, as they stream), stderr the
 * rest (one line per tool, diffs, command output, checkpoints, errors, asks,
 * the result's marker; two-streams.ts keeps them apart on one screen). A
 * subagent's lines are all on stderr, each named by its subagent. Colours only
 * on a terminal.
 */
import type { Writable } from "node:stream";
import { autoModeLine } from "../../task/contracts/auto-mode-line.js";
import { TwoStreams } from "./two-streams.js";
import picocolors from "picocolors";
import { cardMetaOf, diffTools, isToolMeta, metaOf, pathTools, toolMetaOf, type ToolCard } from "../../task/contracts/message-meta.js";
import type { AskMessage, SayMessage, UiMessage } from "../../task/contracts/messages.js";
import { diagnosticsText, toolEnding } from "../../task/contracts/tool-ending.js";
import { neutralizeControls, neutralizeDeep } from "../terminal-controls.js";
import { appendedText } from "../../task/contracts/message-growth.js";

type Colors = ReturnType<typeof picocolors.createColors>;
type Style = (text: string) => string;

const maxDiffLines = 200;

/** Characters of an MCP server's response printed in text mode. */
const shownResponseChars = 20_000;

/** The options of a follow-up question, when the tool gave any. */
export function followupOptions(message: UiMessage): string[] {
  if (message.type === "ask" && message.ask === "elicitation") return metaOf(message, "elicitation")?.options ?? [];
  return metaOf(message, "followup")?.options ?? [];
}

/** What a tool card names: the path, the command, the MCP server, the address ("" keeps it out). */
function cardTarget(meta: ToolCard | undefined): string | undefined {
  const target = isToolMeta(meta, ...pathTools)
    ? meta.path
    : isToolMeta(meta, "execute_command", "attempt_completion")
      ? meta.command
      : isToolMeta(meta, "use_mcp_tool", "access_mcp_resource")
        ? meta.server
        : isToolMeta(meta, "custom_tool")
          ? meta.name
          : isToolMeta(meta, "web_fetch")
            ? meta.url
            : isToolMeta(meta, "browser_action")
              ? [meta.action, meta.url ?? meta.coordinate ?? meta.text].filter((part) => part !== undefined && part !== "").join(" ")
              : undefined;
  return target === "" ? undefined : target;
}

/** The message as it may be shown: a text still streaming holds back an escape sequence its end cuts. */
function printable<M extends UiMessage>(message: M): M {
  const text = neutralizeControls(message.text, { partial: message.partial });
  if (message.meta === undefined) return text === message.text ? message : { ...message, text };
  return { ...message, text, meta: neutralizeDeep(message.meta) };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export class TextPrinter {
  readonly #streams: TwoStreams;
  readonly #colors: Colors;
  /** What has been written so far of each message that streams, by id. */
  readonly #printed = new Map<string, string>();

  constructor(options: { stdout: Writable; stderr: Writable; color: boolean }) {
    this.#streams = new TwoStreams({ answer: options.stdout, log: options.stderr });
    this.#colors = picocolors.createColors(options.color);
  }

  print(received: UiMessage): void {
    // Everything printed comes from here: text and meta without escape sequences (src/ui/terminal-controls.ts).
    const message = printable(received);
    if (message.subagentId !== undefined) {
      this.#printChild(message, message.subagentId);
      return;
    }
    if (message.type === "ask") {
      if (!message.partial) this.#printAsk(message);
      return;
    }
    this.#printSay(message);
  }

  /** How to answer, shown only when cairn really waits for a line. */
  askHint(message: AskMessage): void {
    const card = cardMetaOf(message);
    const preview = card !== undefined && "previewable" in card && card.previewable === true ? "preview (see what it would change first), " : "";
    const options = `${preview}${followupOptions(message).length > 0 ? "an option number, " : ""}`;
    this.#streams.logLine(this.#colors.dim(`  answer: y, n, ${options}or type a message (ask ${message.id})`), { urgent: true });
  }

  /** A line about what cairn decided by itself (an automatic answer). */
  note(text: string): void {
    this.#streams.logLine(this.#colors.dim(`  ${neutralizeControls(text)}`));
  }

  /** Warnings about the input, never mixed into the answer. */
  problem(text: string): void {
    this.#streams.logLine(`cairn: ${neutralizeControls(text)}`);
  }

  /** Ends open lines so the shell prompt starts on its own. */
  finish(): void {
    this.#streams.finish();
  }

  #printSay(message: SayMessage): void {
    const colors = this.#colors;
    switch (message.say) {
      case "text":
        this.#streamAnswer(message);
        return;
      case "reasoning":
        this.#streamLog(message, colors.dim, colors.dim("thinking:"));
        return;
      case "command_output":
        this.#streamLog(message, (text) => text);
        return;
      default:
        break;
    }
    if (message.partial) return;
    if (message.say === "completion_result") {
      // The result is the answer's last message; its marker is a status line.
      this.#streams.logLine("");
      this.#streams.logLine(colors.green(colors.bold("✓ Task completed")));
      this.#wholeAnswer(message);
      return;
    }
    for (const line of this.#sayLines(message)) this.#streams.logLine(line.text, line.urgent === true ? { urgent: true } : {});
  }

  /** The stderr lines of a final `say` (not text, reasoning, output or the result). */
  #sayLines(message: SayMessage): Array<{ text: string; urgent?: boolean }> {
    const colors = this.#colors;
    const card = message.say === "tool" || message.say === "command" ? cardMetaOf(message) : undefined;
    const what = (): string => (message.say === "command" ? `$ ${firstLine(message.text)}` : this.#describeTool(message));
    if (card?.blocked !== undefined) {
      // Said once, when the hook blocked it: the Task's amendment (status "rejected") says the same again.
      return card.status === undefined ? [{ text: colors.red(`✗ ${what()}: blocked by a PreToolUse hook: ${firstLine(card.blocked)}`) }] : [];
    }
    const ending = toolEnding(card);
    const problems = diagnosticsText(card?.diagnostics);
    if (ending === undefined && card?.diagnostics !== undefined) {
      // An edit's card again, amended with its new problems (#32): only they are new.
      if (problems === undefined) return [];
      return [{ text: problems.severity === "error" ? colors.red(`  ${problems.text}`) : problems.severity === "warning" ? colors.yellow(`  ${problems.text}`) : colors.dim(`  ${problems.text}`) }];
    }
    if (ending !== undefined) {
      // The call ended (its card comes again, amended): a failure, a refusal or a command's exit status, with the reason (#11).
      return [{ text: ending.ok ? colors.dim(`  ${ending.text}`) : colors.red(`✗ ${what()}: ${ending.text}`) }];
    }
    const approval = card?.approval;
    // The ask that follows shows the same tool or command; printing both would repeat the diff.
    if ((message.say === "tool" || message.say === "command") && approval === "ask") return [];
    const refused = approval === "refuse" ? colors.red(" (refused)") : "";
    switch (message.say) {
      case "task":
        return [{ text: `${colors.bold("Task:")} ${message.text}` }];
      case "tool":
        return [
          { text: colors.cyan(`▸ ${this.#describeTool(message)}`) + refused },
          ...(card?.autoMode === undefined || approval === "refuse" ? [] : [{ text: colors.dim(`  (${autoModeLine(card.autoMode, approval)})`) }]),
          ...this.#diffLines(message),
        ];
      case "command":
        return [{ text: colors.cyan(`$ ${message.text}`) + refused }];
      case "checkpoint_created":
        return [{ text: colors.dim(`· checkpoint ${message.text.slice(0, 8)}`) }];
      case "error":
        return [{ text: colors.red(`error: ${message.text}`) }];
      case "error_retry":
      case "api_req_retried":
        return message.text === "" ? [] : [{ text: colors.yellow(`retry: ${message.text}`) }];
      case "budget":
        return [{ text: colors.yellow(`budget: ${message.text}`) }];
      case "warning":
      case "diff_error":
      case "empty_assistant_message":
        return [{ text: colors.yellow(`warning: ${message.text}`) }];
      case "user_feedback":
        return [{ text: `> ${message.text}` }];
      case "api_req_started":
      case "tool_result":
        return [];
      case "hook_status":
        return [{ text: colors.dim(`hook: ${message.text}`) }];
      case "mcp_server_response":
        // A server may return megabytes: the terminal gets the start, the task log the whole.
        return [
          {
            text: colors.dim(
              `· ${message.text.length > shownResponseChars ? `${message.text.slice(0, shownResponseChars)}\n… (${message.text.length} characters in all; the whole result is in the task log: cairn show)` : message.text}`,
            ),
          },
        ];
      default:
        return message.text === "" ? [] : [{ text: colors.dim(`· ${message.text}`) }];
    }
  }

  #printAsk(message: AskMessage): void {
    // An ask needs an answer now: it never waits for a streamed line to end.
    for (const line of this.#askLines(message)) this.#streams.logLine(line, { urgent: true });
  }

  #askLines(message: AskMessage): string[] {
    const colors = this.#colors;
    const question = colors.bold(colors.yellow("?"));
    switch (message.ask) {
      case "tool":
        return [`${question} Approve ${colors.cyan(`▸ ${this.#describeTool(message)}`)}`, ...this.#diffLines(message).map((line) => line.text)];
      case "command":
        return [`${question} Run ${colors.cyan(`$ ${message.text}`)}`];
      case "followup":
      case "plan_mode_respond":
        return [`${question} ${message.text}`, ...followupOptions(message).map((option, index) => `  ${index + 1}. ${option}`)];
      case "completion_result":
        return [`${question} Accept the result? (y ends the task; a message asks for more)`];
      case "api_req_failed":
        return [`${question} The request failed: ${message.text} Retry? (y/n)`];
      case "mistake_limit_reached":
        return [`${question} ${message.text} Type guidance to continue, or n to stop.`];
      case "elicitation":
        return [`${question} ${message.text} (n declines the form)`, ...followupOptions(message).map((option, index) => `  ${index + 1}. ${option}`)];
      default:
        return [`${question} ${message.ask}: ${message.text}`];
    }
  }

  /**
   * A subagent's message (issue #17): on stderr only, each line named by its
   * subagent, whole messages only (subagents run side by side: their streams
   * would cut into each other).
   */
  #printChild(message: UiMessage, subagentId: string): void {
    if (message.partial) return;
    const prefix = this.#colors.dim(`[${subagentId}] `);
    let lines: string[];
    if (message.type === "ask") {
      lines = this.#askLines({ ...message, text: withoutSubagentTag(message.text, subagentId) });
    } else if (message.say === "text" || message.say === "command_output") {
      lines = message.text.trim() === "" ? [] : message.text.replace(/\n$/, "").split("\n");
    } else if (message.say === "reasoning") {
      lines = [this.#colors.dim("thinking:"), ...message.text.split("\n").map((line) => this.#colors.dim(line))];
    } else if (message.say === "completion_result") {
      // The child's result is its report to the parent, not the task's end.
      lines = [this.#colors.green(`✓ Subagent ${subagentId} completed`), ...(message.text === "" ? [] : message.text.split("\n"))];
    } else {
      lines = this.#sayLines(message).map((line) => line.text);
    }
    const urgent = message.type === "ask";
    for (const line of lines) this.#streams.logLine(`${prefix}${line}`, urgent ? { urgent } : {});
  }

  #describeTool(message: UiMessage): string {
    const meta = cardMetaOf(message);
    if (meta === undefined || meta.tool === "") return firstLine(message.text);
    const target = cardTarget(meta);
    return target === undefined ? meta.tool : `${meta.tool} ${target}`;
  }

  #diffLines(message: UiMessage): Array<{ text: string }> {
    const diff = toolMetaOf(message, ...diffTools)?.diff;
    if (diff === undefined || diff === "") return [];
    const lines = diff.replace(/\n$/, "").split("\n");
    const shown = lines.slice(0, maxDiffLines).map((line) => {
      const style: Style = line.startsWith("+") ? this.#colors.green : line.startsWith("-") ? this.#colors.red : (text) => text;
      return { text: `  ${style(line)}` };
    });
    if (lines.length > maxDiffLines) shown.push({ text: this.#colors.dim(`  … ${lines.length - maxDiffLines} more lines`) });
    return shown;
  }

  /** The answer's text as it grows: only what is new is written. */
  #streamAnswer(message: SayMessage): void {
    const addition = this.#addition(message);
    if (addition.rewritten) this.#streams.answerEnd(message.id);
    this.#streams.answerChunk(message.id, addition.text);
    if (!message.partial) this.#streams.answerEnd(message.id);
  }

  /** A whole answer message at once (the result). */
  #wholeAnswer(message: SayMessage): void {
    this.#streams.answerChunk(message.id, message.text);
    this.#streams.answerEnd(message.id);
  }

  /** A streamed message of the log (reasoning, a command's output). */
  #streamLog(message: SayMessage, style: Style, header?: string): void {
    const addition = this.#addition(message);
    if (addition.first && header !== undefined) this.#streams.logLine(header);
    if (addition.rewritten) this.#streams.logEnd(message.id);
    this.#streams.logChunk(message.id, style(addition.text));
    if (!message.partial) this.#streams.logEnd(message.id);
  }

  /** What is new in a growing message; the whole text again when it changed rather than grew (rare). */
  #addition(message: SayMessage): { text: string; first: boolean; rewritten: boolean } {
    const printed = this.#printed.get(message.id);
    if (message.partial) this.#printed.set(message.id, message.text);
    else this.#printed.delete(message.id);
    if (printed === undefined) return { text: message.text, first: true, rewritten: false };
    const added = appendedText(message.text, printed);
    return added === undefined ? { text: message.text, first: false, rewritten: true } : { text: added, first: false, rewritten: false };
  }
}

/** A subagent's ask names it in its text (src/session/subagents/subagent-host.ts); the printer names it once, in front. */
function withoutSubagentTag(text: string, subagentId: string): string {
  const tag = `[subagent ${subagentId}] `;
  return text.startsWith(tag) ? text.slice(tag.length) : text;
}
