import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { AskMessage } from "../../../task/contracts/messages.js";
import { metaOf } from "../../../task/contracts/message-meta.js";
import { cleanLine } from "../terminal-text.js";

const questions: Partial<Record<AskMessage["ask"], string>> = {
  tool: "Allow this?",
  command: "Run this command?",
  use_mcp_server: "Allow this MCP call?",
  completion_result: "Done? Enter accepts, or type feedback to continue.",
  api_req_failed: "The request failed. Retry?",
  mistake_limit_reached: "cairn is stuck. Continue, or type guidance?",
  resume_task: "Resume this task?",
  resume_completed_task: "This task was completed. Resume it?",
  plan_mode_respond: "Reply to the plan, or Tab to switch to act mode.",
  empty_response: "The model sent nothing. Retry?",
};

/** The question and the keys that answer it. */
export function AskPrompt({ ask, selected, width }: { ask: AskMessage; selected: number; width: number }): ReactNode {
  if (ask.ask === "followup") {
    const options = metaOf(ask, "followup")?.options ?? [];
    return (
      <Box flexDirection="column" width={width}>
        {options.map((option, index) => (
          <Text key={index} wrap="truncate-end" {...(index === selected ? { color: "cyan" } : {})}>
            {`${index === selected ? "›" : " "} ${index + 1}. ${cleanLine(option)}`}
          </Text>
        ))}
        <Text color="gray" wrap="truncate-end">
          {options.length > 0 ? "↑↓ or 1-9 picks · Enter sends · or type an answer" : "Type an answer, Enter sends"}
        </Text>
      </Box>
    );
  }
  // A subagent's ask names it (issue #17): the user knows which helper is asking.
  const question = `${ask.subagentId === undefined ? "" : `[subagent ${ask.subagentId}] `}${questions[ask.ask] ?? "Answer?"}`;
  const keys = ask.ask === "completion_result" ? "" : "  y/Enter yes · n no · or type a message";
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        <Text color="yellow" bold>
          {question}
        </Text>
        <Text color="gray">{keys}</Text>
      </Text>
    </Box>
  );
}
