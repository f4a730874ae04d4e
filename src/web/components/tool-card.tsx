/** A tool's card (`say`/`ask` of a card kind): what it does, its diff or content, how it ended. It fills in while the model writes it. */
import { cardMetaOf, isToolMeta, type ToolCard } from "../../task/contracts/message-meta.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import type { JsonMessage } from "../../ui/headless/json-events-reader.js";
import { diffLines, formatDuration } from "../format.js";

/** The reader's message as the contracts' readers take it. */
export function asUiMessage(message: JsonMessage): UiMessage {
  const base = { id: message.id, ts: message.ts, text: message.text, partial: message.partial, ...(message.meta === undefined ? {} : { meta: message.meta }) };
  return message.type === "ask" ? { ...base, type: "ask", ask: (message.ask ?? "tool") as never } : { ...base, type: "say", say: (message.say ?? "text") as never };
}

const verbs: Record<string, string> = {
  read_file: "Read",
  list_files: "List",
  list_code_definition_names: "Definitions in",
  search_files: "Search",
  write_to_file: "Write",
  new_rule: "New rule",
  replace_in_file: "Edit",
  web_fetch: "Fetch",
  use_mcp_tool: "MCP",
  access_mcp_resource: "MCP resource",
  use_subagents: "Subagents",
  subagent_merge: "Merge subagent",
  use_skill: "Skill",
  browser_action: "Browser",
  new_task: "New task",
  custom_tool: "Tool",
};

/** The card's one-line title. */
export function cardTitle(meta: ToolCard): string {
  if (isToolMeta(meta, "execute_command")) return `$ ${meta.command ?? ""}`;
  if (isToolMeta(meta, "search_files")) return `Search ${meta.regex ?? ""} in ${meta.path ?? ""}`;
  if (isToolMeta(meta, "read_file", "list_files", "list_code_definition_names", "write_to_file", "new_rule", "replace_in_file")) return `${verbs[meta.tool]} ${meta.path ?? ""}`;
  if (isToolMeta(meta, "web_fetch")) return `Fetch ${meta.url ?? ""}`;
  if (isToolMeta(meta, "use_mcp_tool")) return `MCP ${meta.server ?? ""} · ${meta.name ?? ""}`;
  if (isToolMeta(meta, "access_mcp_resource")) return `MCP ${meta.server ?? ""} · ${meta.uri ?? ""}`;
  if (isToolMeta(meta, "custom_tool")) return meta.name ?? "custom tool";
  if (isToolMeta(meta, "browser_action")) return `Browser ${meta.action ?? ""} ${meta.url ?? ""}`;
  return verbs[meta.tool] ?? meta.tool;
}

export function Diff({ diff }: { diff: string }) {
  return (
    <pre class="diff">
      {diffLines(diff).map((line, index) => (
        <div key={index} class={`d-${line.kind}`}>
          {line.text || " "}
        </div>
      ))}
    </pre>
  );
}

function ending(meta: ToolCard): string | undefined {
  if (meta.status === "error") return `✗ ${meta.error ?? "failed"}`;
  if (meta.status === "rejected") return `✗ not run: ${meta.error ?? "rejected"}`;
  if (meta.end?.kind === "exited") return `exit ${meta.end.exitCode ?? meta.end.signal ?? "?"}${meta.durationMs === undefined ? "" : ` · ${formatDuration(meta.durationMs)}`}`;
  return undefined;
}

export function ToolCardView({ message }: { message: JsonMessage }) {
  const meta = cardMetaOf(asUiMessage(message));
  if (meta === undefined) return <div class="card">{message.text}</div>;
  const diff = isToolMeta(meta, "write_to_file", "new_rule", "replace_in_file", "subagent_merge") ? meta.diff : undefined;
  const content = diff === undefined && isToolMeta(meta, "write_to_file", "new_rule") ? meta.content : undefined;
  const end = ending(meta);
  const failed = meta.status !== undefined;
  return (
    <div class={`card${message.partial ? " streaming" : ""}${failed ? " failed" : ""}`} data-tool={meta.tool}>
      <div class="card-title">
        <span class="card-name">{cardTitle(meta)}</span>
        {message.partial && <span class="spinner" aria-label="being written" />}
        {meta.unsandboxed === true && <span class="tag warn">outside the sandbox</span>}
      </div>
      {meta.reason !== undefined && message.type === "ask" && <div class="card-reason">{meta.reason}</div>}
      {diff !== undefined && diff !== "" && <Diff diff={diff} />}
      {content !== undefined && <pre class="content">{content}</pre>}
      {end !== undefined && <div class={`card-end${failed ? " bad" : ""}`}>{end}</div>}
    </div>
  );
}
