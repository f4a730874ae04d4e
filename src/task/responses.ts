/** What the Task itself tells the model, in cairn's own words. Tool results are the executor's. */

const xmlReminder = `Tool calls use XML-style tags: the tool's name as the outer tag and each parameter as an inner tag, for example:

<attempt_completion>
<result>
A summary of what was done.
</result>
</attempt_completion>

Put the tool call at the end of your answer, and use one tool per answer.`;

export function noToolsUsed(protocol: "xml" | "native"): string {
  const head =
    "[ERROR] Your last answer used no tool. To make progress you must call a tool. " +
    "If the task is finished, call attempt_completion with the result. If you need information from the user, " +
    "call ask_followup_question.";
  return protocol === "xml" ? `${head}\n\n# Reminder\n${xmlReminder}` : head;
}

export function tooManyMistakes(guidance: string | undefined): string {
  const base = "You have made several mistakes in a row (failed tool calls, missing parameters, or answers without a tool). " + "Step back, reconsider your approach, and try a different way.";
  return guidance ? `${base}\n\nThe user gives this guidance:\n<feedback>\n${guidance}\n</feedback>` : base;
}

export function repeatedToolCall(name: string): string {
  return `[WARNING] You have called ${name} with the same parameters several times in a row. ` + "Repeating it will not give a different result: change your approach.";
}

export function toolSkippedSerial(name: string): string {
  return `Tool ${name} was not executed because a tool was already used in this answer. Use one tool per answer and wait for its result.`;
}

export function toolSkippedAfterRejection(name: string): string {
  return `Tool ${name} was skipped because the user rejected a previous tool in this answer.`;
}

export function toolSkippedAfterStreamFailure(name: string): string {
  return `Tool ${name} was not executed because the answer was cut off by an API error before it was complete.`;
}

export function toolSkippedAtOutputLimit(name: string): string {
  return (
    `Tool ${name} was not executed because your answer was cut off by the output-token limit before the call was complete. ` +
    "Split the work into smaller steps: for example write a long file in parts (write_to_file with the first part, then " +
    "replace_in_file to add the rest), or change an existing file with replace_in_file instead of rewriting it."
  );
}

/** What the user sees when a cut-off tool call is skipped (#11 item 1). */
export function toolCutOffNotice(name: string): string {
  return `${name} was not run: the answer was cut off by the output-token limit before the call was complete. The model is asked to split the work.`;
}

export const interruptedByOutputLimit = "[Response cut off by the output-token limit]";

export const interruptedByUserFeedback = "[Response interrupted by user feedback]";
export const interruptedByToolUse = "[Response interrupted by a tool use result. Only one tool may be used at a time and it should be placed at the end of the answer.]";
export const interruptedByUser = "[Response interrupted by user]";

export function interruptedByApiError(message: string): string {
  return `[Response interrupted by API error: ${message}]`;
}

export function continueAfterApiError(message: string): string {
  return `[Your previous answer was cut off by an API error (${message}). Results of the tools that completed are above, if any. Continue from where you stopped.]`;
}

export function userFeedback(text: string): string {
  return `<feedback>\n${text}\n</feedback>`;
}

export function emptyAnswerRetry(): string {
  return "[Your previous answer was empty. Answer again, using a tool.]";
}

export function contextTruncated(removedMessages: number): string {
  return `[NOTE] ${removedMessages} earlier messages were removed from this conversation to stay within the model's context window.`;
}
