/**
 * Every text cairn sends back to the model about a tool call, in one place,
 * so the wording stays consistent and can be tuned without hunting.
 */
import type { ToolOutcome } from "../task/contracts/tool-executor.js";

export type Protocol = "xml" | "native";

export function success(content: string): ToolOutcome {
  return { status: "success", content };
}

export function toolError(message: string): ToolOutcome {
  return { status: "error", content: `The tool failed: ${message}` };
}

export function mistake(message: string): ToolOutcome {
  return { status: "mistake", content: message };
}

export function missingParameter(options: { tool: string; parameter: string; protocol: Protocol }): ToolOutcome {
  const how = options.protocol === "xml" ? `Send the call again with <${options.parameter}>...</${options.parameter}> inside <${options.tool}>.` : `Send the call again with a non-empty "${options.parameter}" argument.`;
  return mistake(`missing value for required parameter '${options.parameter}' of ${options.tool}: it was absent or empty. ${how}`);
}

export function invalidArgumentsJson(tool: string, raw: string): ToolOutcome {
  const shown = raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
  return mistake(`The arguments of ${tool} were not a valid JSON object, so it did not run. You sent:\n${shown}\nSend the call again with its arguments as one JSON object.`);
}

export function invalidParameter(options: { tool: string; parameter: string; problem: string }): ToolOutcome {
  return mistake(`invalid value for parameter '${options.parameter}' of ${options.tool}: ${options.problem}`);
}

export function unknownTool(name: string, available: string[]): ToolOutcome {
  return mistake(`There is no tool named '${name}'. The tools you can use are: ${available.join(", ")}.`);
}

export function notInMode(name: string, mode: "plan" | "act"): ToolOutcome {
  if (mode === "plan") {
    return mistake(
      `${name} changes the workspace and cannot be used in PLAN MODE. Gather information with the read-only tools ` + `and present your plan with plan_mode_respond; the user switches to ACT MODE to carry it out.`,
    );
  }
  return mistake(`${name} is only available in PLAN MODE. You are in ACT MODE: carry out the task with the other tools.`);
}

export function denied(feedback: string | undefined): ToolOutcome {
  const said = feedback !== undefined && feedback.trim() !== "" ? `\nThe user said:\n<feedback>\n${feedback}\n</feedback>` : "";
  return { status: "rejected", content: `The user denied this operation; it did not run.${said}` };
}

export function refusedOutsideWrite(path: string): ToolOutcome {
  return toolError(`${path} is outside the workspace and writing outside the workspace is not allowed when running with --yes. ` + `Write inside the workspace, or rerun cairn with --allow-outside-writes.`);
}

export function ignoredPath(path: string): ToolOutcome {
  return toolError(`access to ${path} is blocked by the workspace's .cairnignore (or .clineignore). Continue without it, ` + `or ask the user to change the ignore file.`);
}

/** Appends what the user said while approving, so the model sees it. */
export function withApprovalFeedback(outcome: ToolOutcome, feedback: string | undefined): ToolOutcome {
  if (feedback === undefined || feedback.trim() === "" || typeof outcome.content !== "string") return outcome;
  return { ...outcome, content: `${outcome.content}\n\nThe user approved this and said:\n<feedback>\n${feedback}\n</feedback>` };
}

export const yesModeNoUser = "There is no user to answer (cairn runs with --yes). Proceed on your own best judgement; state any assumption you make.";
