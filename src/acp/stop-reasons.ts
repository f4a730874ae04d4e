/**
 * Why a prompt turn ended, in ACP's words. A turn ends when the task asks the
 * user something (the next prompt answers it) or the task ends; a cancel
 * always reads `cancelled`, however the task noticed it.
 */
import type { StopReason } from "@agentclientprotocol/sdk";
import { metaOf } from "../task/contracts/message-meta.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskResult } from "../task/contracts/task-options.js";

const limitReasons: readonly StopReason[] = ["max_tokens", "max_turn_requests", "refusal"];

function isLimitReason(reason: string): reason is StopReason {
  return limitReasons.some((limit) => limit === reason);
}

/** A limit or refusal a message reports (the model's stop reason, a budget), if any. */
export function stopHintOf(message: UiMessage): StopReason | undefined {
  const reason = metaOf(message, "api_req_started")?.stopReason;
  if (reason === undefined) return undefined;
  // OpenAI names a refusal by its content filter.
  if (reason === "content_filter") return "refusal";
  return isLimitReason(reason) ? reason : undefined;
}

export function stopReasonFor(options: { cancelled: boolean; result?: TaskResult; hint: StopReason | undefined }): StopReason {
  if (options.cancelled) return "cancelled";
  // A refusal stops the task (staged abort) so the turn can end with it.
  if (options.hint === "refusal") return "refusal";
  // A budget (#14: requests, tokens, cost, time, tool calls) stopped the task.
  if ((options.result?.status as string | undefined) === "budget") return "max_turn_requests";
  if (options.result?.status === "aborted") return "cancelled";
  if (options.result?.status === "completed") return "end_turn";
  return options.hint ?? "end_turn";
}
