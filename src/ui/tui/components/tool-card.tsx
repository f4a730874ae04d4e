import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { UiMessage } from "../../../task/contracts/messages.js";
import { cardMetaOf, diffTools, isToolMeta, pathTools, type ToolCard } from "../../../task/contracts/message-meta.js";
import { diagnosticsText, toolEnding } from "../../../task/contracts/tool-ending.js";
import { autoModeLine } from "../../../task/contracts/auto-mode-line.js";
import { cleanLine, lastLines } from "../terminal-text.js";
import { DiffView } from "./diff-view.js";

const verbs: Record<string, string> = {
  read_file: "Read",
  write_to_file: "Write",
  replace_in_file: "Edit",
  list_files: "List",
  search_files: "Search",
  list_code_definition_names: "Outline",
  execute_command: "Run",
  browser_action: "Browse",
  use_mcp_tool: "MCP",
  custom_tool: "Tool",
  access_mcp_resource: "MCP resource",
  new_task: "New task",
  web_fetch: "Fetch",
  ask_followup_question: "Question",
  plan_mode_respond: "Plan",
  attempt_completion: "Complete",
  use_subagents: "Subagents",
  read_process_output: "Output of",
  stop_process: "Stop",
};

function firstLine(text: string): string {
  const newline = text.indexOf("\n");
  return cleanLine(newline === -1 ? text : text.slice(0, newline));
}

function targetOf(meta: ToolCard, text: string): string | undefined {
  if (isToolMeta(meta, "search_files")) return meta.regex === undefined ? meta.path : `${meta.regex}  in ${meta.path ?? "."}`;
  if (isToolMeta(meta, "use_mcp_tool")) return meta.server === undefined ? undefined : `${meta.server} / ${meta.name ?? ""}`;
  if (isToolMeta(meta, "custom_tool")) return meta.name;
  if (isToolMeta(meta, "access_mcp_resource")) return meta.server === undefined ? undefined : `${meta.server} ${meta.uri ?? ""}`;
  if (isToolMeta(meta, "use_subagents")) return meta.subagents?.map((item) => item.subagentId).join(", ");
  const named = isToolMeta(meta, "execute_command", "attempt_completion") ? meta.command : isToolMeta(meta, ...pathTools) ? meta.path : isToolMeta(meta, "web_fetch", "browser_action") ? meta.url : undefined;
  return named ?? (text === "" ? undefined : firstLine(text));
}

/** What a tool call does, in a few words: the verb and the path or command. */
export function describeTool(message: UiMessage): { verb: string; target: string; isCommand: boolean } {
  const meta = cardMetaOf(message);
  const commandKind = message.type === "ask" ? message.ask === "command" : message.say === "command";
  if (meta === undefined) return { verb: commandKind ? "Run" : "Tool", target: firstLine(message.text), isCommand: commandKind };
  return {
    // A background command says so on its card, before it is approved (#31).
    verb: isToolMeta(meta, "execute_command") && meta.background === true ? "Run in the background" : (verbs[meta.tool] ?? meta.tool),
    target: targetOf(meta, message.text) ?? "",
    isCommand: commandKind || meta.tool === "execute_command",
  };
}

/** A tool call as a compact card that fills in while the call streams. */
export function ToolCard({ message, width, maxDiffLines }: { message: UiMessage; width: number; maxDiffLines: number }): ReactNode {
  const { verb, target, isCommand } = describeTool(message);
  const meta = cardMetaOf(message);
  // How the call ended: a failure or refusal with its reason, a command's exit status (#11).
  const ending = message.partial ? undefined : toolEnding(meta);
  // The new problems the edit introduced, as the language servers found them (#32).
  const problems = message.partial ? undefined : diagnosticsText(meta?.diagnostics);
  const edit = isToolMeta(meta, ...diffTools) ? meta : undefined;
  // While a new file streams there is no diff yet: show the end of what is written so far.
  const preview = message.partial && edit?.diff === undefined && edit !== undefined && "content" in edit && edit.content !== undefined && edit.content !== "" ? lastLines(edit.content, 4).lines : [];
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={message.partial ? "gray" : "yellow"}>{"● "}</Text>
        <Text bold>{verb}</Text>
        <Text> </Text>
        <Box flexShrink={1}>
          <Text color="cyan" wrap={isCommand ? "wrap" : "truncate-middle"}>
            {isCommand ? `$ ${target}` : target}
          </Text>
        </Box>
        {message.partial ? <Text color="gray">{" …"}</Text> : null}
      </Box>
      {/* Auto mode's judgement (issue 30): what it decided and why. */}
      {meta?.autoMode !== undefined && !message.partial ? <Text color="gray" wrap="wrap">{`  ${autoModeLine(meta.autoMode, meta.approval)}`}</Text> : null}
      {/* Every child the call starts, with its type and the first line of its prompt. */}
      {isToolMeta(meta, "use_subagents")
        ? (meta.subagents ?? []).map((item) => <Text key={item.subagentId} color="gray" wrap="truncate-end">{`  ${item.subagentId} (${item.agent}): ${firstLine(item.prompt)}`}</Text>)
        : null}
      {isToolMeta(meta, ...pathTools) && meta.outsideWorkspace === true ? <Text color="red">{"  ⚠ outside the workspace"}</Text> : null}
      {meta?.approval === "refuse" && ending === undefined ? (
        <Text color="red" wrap="truncate-end">
          {meta.reason === undefined ? "  ✗ refused by the approval policy" : `  ✗ refused: ${cleanLine(meta.reason)}`}
        </Text>
      ) : null}
      {/* Why cairn asks (the sandbox cannot run here, a rule asks, a protected path...): the answer depends on it. */}
      {message.type === "ask" && meta?.reason !== undefined ? <Text color="yellow">{`  Asked because ${cleanLine(meta.reason)}`}</Text> : null}
      {meta?.blocked !== undefined ? <Text color="red">{`  ✗ blocked by a PreToolUse hook: ${cleanLine(meta.blocked)}`}</Text> : null}
      {ending !== undefined && meta?.blocked === undefined ? <Text color={ending.ok ? "green" : "red"} wrap="truncate-end">{`  ${ending.ok ? "" : "✗ "}${ending.text}`}</Text> : null}
      {problems !== undefined ? (
        <Text color={problems.severity === "error" ? "red" : problems.severity === "warning" ? "yellow" : "gray"} wrap="truncate-end">{`  ${problems.severity === "note" ? "" : "⚠ "}${cleanLine(problems.text)}`}</Text>
      ) : null}
      {preview.map((line, index) => (
        <Text key={index} color="gray" wrap="truncate-end">{`  ${cleanLine(line) || " "}`}</Text>
      ))}
      {edit?.diff !== undefined && edit.diff !== "" ? (
        <Box paddingLeft={2}>
          <DiffView diff={edit.diff} width={width - 2} maxLines={maxDiffLines} />
        </Box>
      ) : null}
    </Box>
  );
}
