/**
 * The one mapping from cairn's UI messages (the same ones the TUI and
 * `--json` show) to ACP `session/update` payloads. It is stateful only to turn
 * cairn's "whole text so far" updates into the deltas ACP streams, and to
 * remember which tool call a later message (output, outcome) belongs to.
 */
import type { SessionUpdate, ToolCallContent, ToolCallStatus, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { appendedText } from "../task/contracts/message-growth.js";
import { cardMetaOf, isToolMeta, metaOf, pathTools } from "../task/contracts/message-meta.js";
import type { AskMessage, SayMessage, UiMessage } from "../task/contracts/messages.js";
import { toolEnding } from "../task/contracts/tool-ending.js";
import { planEntries } from "./plan-entries.js";
import { diffContent, textContent, toolKind, toolLocations, toolTitle } from "./tool-call-fields.js";

export interface ProjectionOptions {
  /** The session's folder: relative paths in messages are resolved against it. */
  cwd: string;
  /** Whether the client shows `notice` updates (else warnings become agent messages). */
  notices: boolean;
}

interface ToolCallState {
  tool: string;
  status: ToolCallStatus;
  /** The call as last shown, for a permission request that repeats it. */
  shown: Omit<ToolCallUpdate, "status">;
  /** Output shown in the client's own terminal: the text output is not repeated. */
  terminalId?: string;
}

/** Results longer than this are cut in a tool call's content (the model still gets them whole). */
const maximumResultCharacters = 4000;

export class UpdateProjection {
  private readonly sentText = new Map<string, string>();
  private readonly toolCalls = new Map<string, ToolCallState>();
  /** The newest tool call not yet ended: outputs and outcomes belong to it (tools run one at a time). */
  private openToolCallId: string | undefined;

  constructor(private readonly options: ProjectionOptions) {}

  /** The tool call a permission request is about: the one the ask follows. */
  get currentToolCallId(): string | undefined {
    return this.openToolCallId;
  }

  /** The call as last shown (title, kind, diff, locations): a permission request carries it too. */
  toolCallSnapshot(toolCallId: string): ToolCallUpdate {
    const state = this.toolCalls.get(toolCallId);
    return state === undefined ? { toolCallId } : { ...state.shown, status: state.status };
  }

  /** Output of the current command runs in the client's terminal `terminalId`. */
  attachTerminal(terminalId: string): SessionUpdate[] {
    const id = this.openToolCallId;
    const state = id === undefined ? undefined : this.toolCalls.get(id);
    if (id === undefined || state === undefined) return [];
    state.terminalId = terminalId;
    return [{ sessionUpdate: "tool_call_update", toolCallId: id, content: [{ type: "terminal", terminalId }] }];
  }

  /** A permission answer moves the call on: allowed runs now, rejected has failed. */
  permissionAnswered(toolCallId: string, allowed: boolean): SessionUpdate[] {
    return this.setStatus(toolCallId, allowed ? "in_progress" : "failed");
  }

  /**
   * Maps one message (new or an update of a partial one). `replay` also maps
   * the user's own messages, which a live client has shown already.
   */
  project(message: UiMessage, replay = false): SessionUpdate[] {
    return message.type === "say" ? this.projectSay(message, replay) : this.projectAsk(message);
  }

  private projectSay(message: SayMessage, replay: boolean): SessionUpdate[] {
    switch (message.say) {
      case "text":
      case "completion_result":
        return this.chunk("agent_message_chunk", message);
      case "reasoning":
        return this.chunk("agent_thought_chunk", message);
      case "task":
      case "user_feedback":
        return replay ? [{ sessionUpdate: "user_message_chunk", messageId: message.id, content: { type: "text", text: message.text } }] : [];
      case "tool":
      case "command":
        return this.toolMessage(message);
      case "command_output":
        return this.commandOutput(message);
      case "tool_result":
        return this.toolResult(message);
      case "error":
        return this.notice(message, "error", true);
      case "warning":
      case "error_retry":
        return this.notice(message, "warning", true);
      case "info":
      case "mcp_notification":
      case "checkpoint_created":
        return this.notice(message, "info", false);
      default:
        // The task checklist (#13) becomes the session's plan; the client replaces it each time.
        if (message.say === "checklist" && !message.partial) {
          const entries = planEntries(metaOf(message, "checklist"));
          return entries.length === 0 ? [] : [{ sessionUpdate: "plan", entries }];
        }
        return [];
    }
  }

  private projectAsk(message: AskMessage): SessionUpdate[] {
    switch (message.ask) {
      case "followup": {
        const options = metaOf(message, "followup")?.options ?? [];
        const list = options.length > 0 ? `\n\n${options.map((option) => `- ${option}`).join("\n")}` : "";
        return this.wholeMessage(message, `${message.text}${list}`);
      }
      case "plan_mode_respond":
        return this.wholeMessage(message, `${message.text}\n\n(Answer to refine the plan, or switch to Act mode to carry it out.)`);
      case "elicitation": {
        const options = metaOf(message, "elicitation")?.options ?? [];
        const list = options.length > 0 ? `\n\n${options.map((option) => `- ${option}`).join("\n")}` : "";
        return this.wholeMessage(message, `${message.text}${list}\n\n(Answer in your next message; "decline" declines the form.)`);
      }
      case "mistake_limit_reached":
      case "api_req_failed":
      case "empty_response":
        return this.wholeMessage(message, `${message.text}\n\n(Answer to go on, or cancel.)`);
      default:
        return [];
    }
  }

  /** Streams the part of a message's text not sent yet. */
  private chunk(kind: "agent_message_chunk" | "agent_thought_chunk", message: UiMessage): SessionUpdate[] {
    const sent = this.sentText.get(message.id) ?? "";
    const text = message.text;
    // cairn re-sends the whole text; the display cleaning may trim a half-streamed tag
    // that later comes back in full, so only what extends past the sent text is new.
    const added = appendedText(text, sent);
    const delta = added ?? (text.length > sent.length ? text.slice(sent.length) : "");
    if (added !== "") this.sentText.set(message.id, added === undefined ? sent + delta : text);
    if (delta === "") return [];
    return [{ sessionUpdate: kind, messageId: message.id, content: { type: "text", text: delta } }];
  }

  private wholeMessage(message: UiMessage, text: string): SessionUpdate[] {
    return this.chunk("agent_message_chunk", { ...message, text });
  }

  private notice(message: SayMessage, severity: "info" | "warning" | "error", important: boolean): SessionUpdate[] {
    if (message.partial || message.text.trim() === "") return [];
    if (this.options.notices) return [{ sessionUpdate: "notice", severity, title: message.text.split("\n", 1)[0] ?? message.text, description: message.text }];
    if (!important) return [];
    const label = severity === "error" ? "Error" : "Warning";
    return this.wholeMessage(message, `\n\n**${label}:** ${message.text}\n`);
  }

  private toolMessage(message: SayMessage): SessionUpdate[] {
    const meta = cardMetaOf(message);
    const tool = meta?.tool ?? (message.say === "command" ? "execute_command" : "tool");
    const content: ToolCallContent[] = [];
    const edit = isToolMeta(meta, "write_to_file", "new_rule", "replace_in_file") ? meta : undefined;
    if (edit?.diff !== undefined && edit.diff !== "" && edit.path !== undefined) {
      content.push(...diffContent(this.options.cwd, edit.path, edit.diff, edit.created === true));
    }
    const locations = toolLocations(this.options.cwd, isToolMeta(meta, ...pathTools) ? meta.path : undefined);
    const approval = meta?.approval;
    const status: ToolCallStatus = approval === "auto" ? "in_progress" : approval === "refuse" ? "failed" : "pending";
    const fields = {
      toolCallId: message.id,
      title: toolTitle(tool, message.text),
      kind: toolKind(tool),
      ...(locations ? { locations } : {}),
      ...(content.length > 0 ? { content } : {}),
      rawInput: stripBulky(meta ?? {}),
    };
    const existing = this.toolCalls.get(message.id);
    this.openToolCallId = message.id;
    if (existing === undefined) {
      this.toolCalls.set(message.id, { tool, status, shown: fields });
      return [{ sessionUpdate: "tool_call", ...fields, status }];
    }
    existing.shown = { ...existing.shown, ...fields };
    const statusChanged = existing.status !== status && existing.status === "pending";
    if (statusChanged) existing.status = status;
    return [{ sessionUpdate: "tool_call_update", ...fields, ...(statusChanged ? { status } : {}) }];
  }

  private commandOutput(message: SayMessage): SessionUpdate[] {
    const id = this.openToolCallId;
    const state = id === undefined ? undefined : this.toolCalls.get(id);
    if (id === undefined || state === undefined || state.terminalId !== undefined) return [];
    return [{ sessionUpdate: "tool_call_update", toolCallId: id, content: [textContent(message.text)] }];
  }

  private toolResult(message: SayMessage): SessionUpdate[] {
    const meta = metaOf(message, "tool_result");
    const id = this.openToolCallId;
    const state = id === undefined ? undefined : this.toolCalls.get(id);
    // A tool that showed no call of its own (a question, the completion) has nothing to end.
    if (id === undefined || state === undefined || meta === undefined || state.tool !== meta.tool) return [];
    this.openToolCallId = undefined;
    const status: ToolCallStatus = meta.status === "success" ? "completed" : "failed";
    state.status = status;
    // A command's exit status, as every surface says it (#11): `exitCode` for a program, `ending` for a person.
    const end =
      meta.end === undefined
        ? {}
        : {
            end: meta.end,
            ...(meta.end.kind === "exited" ? { exitCode: meta.end.exitCode } : {}),
            ending: toolEnding({ tool: meta.tool, end: meta.end, ...(meta.durationMs === undefined ? {} : { durationMs: meta.durationMs }) })?.text,
          };
    const diagnostics = meta.diagnostics === undefined ? {} : { diagnostics: meta.diagnostics };
    const update: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: id, status, rawOutput: { status: meta.status, result: message.text, ...end, ...diagnostics } };
    const kind = toolKind(state.tool);
    // An edit's result is its diff, which the editor has: shown only when it failed or brought new problems (#32).
    const newProblems = (meta.diagnostics?.errors ?? 0) + (meta.diagnostics?.warnings ?? 0) > 0;
    const showsResult = status === "failed" || newProblems || !(kind === "edit" || kind === "execute");
    if (showsResult && message.text.trim() !== "") {
      const shown = message.text.length > maximumResultCharacters ? `${message.text.slice(0, maximumResultCharacters)}\n[…]` : message.text;
      update.content = [textContent(shown)];
    }
    return [update];
  }

  private setStatus(toolCallId: string, status: ToolCallStatus): SessionUpdate[] {
    const state = this.toolCalls.get(toolCallId);
    if (state === undefined || state.status === status) return [];
    state.status = status;
    return [{ sessionUpdate: "tool_call_update", toolCallId, status }];
  }
}

/** The tool's parameters as the client's raw input, without the bulky preview fields. */
const bulky = new Set(["diff", "content", "approval"]);

function stripBulky(meta: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta).filter(([key]) => !bulky.has(key)));
}
