/**
 * The task as readable text for a person watching a terminal or reading a CI
 * log: the answer as it streams, one line per tool, command output, errors on
 * stderr, the result clearly marked. Colours only on a terminal.
 */
import type { Writable } from "node:stream";
import picocolors from "picocolors";
import { cardMetaOf, diffTools, isToolMeta, metaOf, pathTools, toolMetaOf, type ToolCard } from "../../task/contracts/message-meta.js";
import type { AskMessage, SayMessage, UiMessage } from "../../task/contracts/messages.js";
import { toolEnding } from "../../task/contracts/tool-ending.js";

type Colors = ReturnType<typeof picocolors.createColors>;
type Style = (text: string) => string;

const maxDiffLines = 200;

/** The options of a follow-up question, when the tool gave any. */
export function followupOptions(message: UiMessage): string[] {
  return metaOf(message, "followup")?.options ?? [];
}

/** What a tool card names: the path, the command or the MCP server ("" keeps it out). */
function cardTarget(meta: ToolCard | undefined): string | undefined {
  const target = isToolMeta(meta, ...pathTools)
    ? meta.path
    : isToolMeta(meta, "execute_command", "attempt_completion")
      ? meta.command
      : isToolMeta(meta, "use_mcp_tool", "access_mcp_resource")
        ? meta.server
        : undefined;
  return target === "" ? undefined : target;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export class TextPrinter {
  readonly #stdout: Writable;
  readonly #stderr: Writable;
  readonly #colors: Colors;
  /** What has been written so far of each message that streams. */
  readonly #streams = new Map<string, string>();
  /** The stream whose text ends stdout right now. */
  #current: string | undefined;
  #lineOpen = false;
  /** A streaming message whose text leaves the current line open. */
  #streamHoldingLine: string | undefined;
  /** Lines that arrived while a stream was mid-line: printed once that line ends (issue #12). */
  readonly #deferred: Array<{ text: string; target: Writable }> = [];

  constructor(options: { stdout: Writable; stderr: Writable; color: boolean }) {
    this.#stdout = options.stdout;
    this.#stderr = options.stderr;
    this.#colors = picocolors.createColors(options.color);
  }

  print(message: UiMessage): void {
    if (message.type === "ask") {
      if (!message.partial) this.#printAsk(message);
      return;
    }
    this.#printSay(message);
  }

  /** How to answer, shown only when cairn really waits for a line. */
  askHint(message: AskMessage): void {
    const options = followupOptions(message).length > 0 ? "an option number, " : "";
    this.#line(this.#colors.dim(`  answer: y, n, ${options}or type a message (ask ${message.id})`));
  }

  /** A line about what cairn decided by itself (an automatic answer). */
  note(text: string): void {
    this.#line(this.#colors.dim(`  ${text}`));
  }

  /** Warnings about the input, never mixed into the answer. */
  problem(text: string): void {
    this.#line(`cairn: ${text}`, this.#stderr);
  }

  /** Ends an open line so the shell prompt starts on its own. */
  finish(): void {
    this.#endLine();
  }

  #printSay(message: SayMessage): void {
    const colors = this.#colors;
    switch (message.say) {
      case "text":
        this.#stream(message, (text) => text);
        return;
      case "reasoning":
        this.#stream(message, colors.dim, colors.dim("thinking:"));
        return;
      case "command_output":
        this.#stream(message, (text) => text);
        return;
      default:
        break;
    }
    if (message.partial) return;
    const card = message.say === "tool" || message.say === "command" ? cardMetaOf(message) : undefined;
    const ending = toolEnding(card);
    if (ending !== undefined) {
      // The call ended (its card comes again, amended): a failure, a refusal or a command's exit status, with the reason (#11).
      const what = message.say === "command" ? `$ ${firstLine(message.text)}` : this.#describeTool(message);
      this.#line(ending.ok ? colors.dim(`  ${ending.text}`) : colors.red(`✗ ${what}: ${ending.text}`));
      return;
    }
    const approval = card?.approval;
    // The ask that follows shows the same tool or command; printing both would repeat the diff.
    if ((message.say === "tool" || message.say === "command") && approval === "ask") return;
    const refused = approval === "refuse" ? colors.red(" (refused)") : "";
    switch (message.say) {
      case "task":
        this.#line(`${colors.bold("Task:")} ${message.text}`);
        return;
      case "tool":
        this.#line(colors.cyan(`▸ ${this.#describeTool(message)}`) + refused);
        this.#printDiff(message);
        return;
      case "command":
        this.#line(colors.cyan(`$ ${message.text}`) + refused);
        return;
      case "checkpoint_created":
        this.#line(colors.dim(`· checkpoint ${message.text.slice(0, 8)}`));
        return;
      case "completion_result":
        this.#endLine();
        this.#write("\n");
        this.#line(colors.green(colors.bold("✓ Task completed")));
        if (message.text !== "") this.#line(message.text);
        return;
      case "error":
        this.#line(colors.red(`error: ${message.text}`), this.#stderr);
        return;
      case "error_retry":
      case "api_req_retried":
        if (message.text !== "") this.#line(colors.yellow(`retry: ${message.text}`), this.#stderr);
        return;
      case "budget":
        this.#line(colors.yellow(`budget: ${message.text}`), this.#stderr);
        return;
      case "warning":
      case "diff_error":
      case "empty_assistant_message":
        this.#line(colors.yellow(`warning: ${message.text}`), this.#stderr);
        return;
      case "user_feedback":
        this.#line(`> ${message.text}`);
        return;
      case "api_req_started":
      case "tool_result":
        return;
      case "hook_status":
        this.#line(colors.dim(`hook: ${message.text}`), this.#stderr);
        return;
      default:
        if (message.text !== "") this.#line(colors.dim(`· ${message.text}`));
    }
  }

  #printAsk(message: AskMessage): void {
    // An ask needs an answer now: it never waits for a streamed line to end.
    this.#endLine();
    const colors = this.#colors;
    const question = colors.bold(colors.yellow("?"));
    switch (message.ask) {
      case "tool":
        this.#line(`${question} Approve ${colors.cyan(`▸ ${this.#describeTool(message)}`)}`);
        this.#printDiff(message);
        return;
      case "command":
        this.#line(`${question} Run ${colors.cyan(`$ ${message.text}`)}`);
        return;
      case "followup":
      case "plan_mode_respond":
        this.#line(`${question} ${message.text}`);
        followupOptions(message).forEach((option, index) => this.#line(`  ${index + 1}. ${option}`));
        return;
      case "completion_result":
        this.#line(`${question} Accept the result? (y ends the task; a message asks for more)`);
        return;
      case "api_req_failed":
        this.#line(`${question} The request failed: ${message.text} Retry? (y/n)`);
        return;
      case "mistake_limit_reached":
        this.#line(`${question} ${message.text} Type guidance to continue, or n to stop.`);
        return;
      default:
        this.#line(`${question} ${message.ask}: ${message.text}`);
    }
  }

  #describeTool(message: UiMessage): string {
    const meta = cardMetaOf(message);
    if (meta === undefined || meta.tool === "") return firstLine(message.text);
    const target = cardTarget(meta);
    return target === undefined ? meta.tool : `${meta.tool} ${target}`;
  }

  #printDiff(message: UiMessage): void {
    const diff = toolMetaOf(message, ...diffTools)?.diff;
    if (diff === undefined || diff === "") return;
    const lines = diff.replace(/\n$/, "").split("\n");
    for (const line of lines.slice(0, maxDiffLines)) {
      const style: Style = line.startsWith("+") ? this.#colors.green : line.startsWith("-") ? this.#colors.red : (text) => text;
      this.#line(`  ${style(line)}`);
    }
    if (lines.length > maxDiffLines) this.#line(this.#colors.dim(`  … ${lines.length - maxDiffLines} more lines`));
  }

  /** Writes only what is new in a growing message, so streaming text reads as one piece. */
  #stream(message: SayMessage, style: Style, header?: string): void {
    const printed = this.#streams.get(message.id);
    let addition: string;
    if (printed === undefined) {
      this.#endLine();
      if (header !== undefined) this.#line(header);
      addition = message.text;
    } else if (message.text.startsWith(printed)) {
      if (this.#current !== message.id) this.#endLine();
      addition = message.text.slice(printed.length);
    } else {
      // The text changed rather than grew (rare): show it again whole.
      this.#endLine();
      addition = message.text;
    }
    this.#streamHoldingLine = undefined;
    const lineBreak = addition.indexOf("\n");
    if (lineBreak !== -1 && this.#deferred.length > 0) {
      // The streamed line ends here: the lines that waited for it go right after it.
      this.#write(style(addition.slice(0, lineBreak + 1)));
      this.#flushDeferred();
      addition = addition.slice(lineBreak + 1);
    }
    if (addition !== "") this.#write(style(addition));
    this.#current = message.id;
    if (message.partial) {
      this.#streams.set(message.id, message.text);
      if (this.#lineOpen) this.#streamHoldingLine = message.id;
      return;
    }
    this.#streams.delete(message.id);
    this.#endLine();
  }

  #line(text: string, target: Writable = this.#stdout): void {
    if (this.#streamHoldingLine !== undefined && this.#lineOpen) {
      this.#deferred.push({ text, target });
      return;
    }
    this.#endLine();
    if (target === this.#stdout) this.#write(`${text}\n`);
    else target.write(`${text}\n`);
  }

  #write(text: string): void {
    this.#stdout.write(text);
    this.#lineOpen = !text.endsWith("\n");
    this.#current = undefined;
  }

  #endLine(): void {
    if (this.#lineOpen) this.#write("\n");
    this.#current = undefined;
    this.#streamHoldingLine = undefined;
    this.#flushDeferred();
  }

  #flushDeferred(): void {
    const lines = this.#deferred.splice(0);
    for (const line of lines) {
      if (line.target === this.#stdout) this.#write(`${line.text}\n`);
      else line.target.write(`${line.text}\n`);
    }
  }
}
