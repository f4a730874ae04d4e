/**
 * A command that cannot be previewed (#30: it gets the network, it runs too
 * long, overlayfs is not allowed here) says why, and the user is asked again
 * whether to run it for real.
 */
import { escapeHidden } from "../../security/display-text.js";
import type { ToolMetaOf } from "../../task/contracts/message-meta.js";
import type { ToolOutcome } from "../../task/contracts/tool-executor.js";
import { denied } from "../responses.js";
import type { ToolRuntime } from "../tool-definition.js";

/** Undefined when the user wants it run for real; otherwise the outcome of the refusal. */
export async function askAfterPreview(options: { runtime: ToolRuntime; command: string; why: string }): Promise<ToolOutcome | undefined> {
  const shown = escapeHidden(options.command).text;
  const reason = `it cannot be previewed: ${options.why}`;
  const meta = { tool: "execute_command", command: shown, approval: "ask", reason } satisfies ToolMetaOf<"execute_command">;
  const answer = await options.runtime.context.ask("command", `${shown}\n(It cannot be previewed: ${escapeHidden(options.why).text}. Run it for real?)`, { meta });
  if (answer.response === "yes") return undefined;
  return denied(answer.text);
}
