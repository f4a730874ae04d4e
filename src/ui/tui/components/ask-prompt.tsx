import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { AskMessage } from "../../../task/contracts/messages.js";
import { metaOf } from "../../../task/contracts/message-meta.js";
import { cleanLine } from "../terminal-text.js";
import { askChoices, replyChoice, replyLabel } from "../ask-choices.js";
import type { AskChoice } from "../ask-choices.js";

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

/** An ask of the UI's own (keep the background processes?, src/cli/interactive-processes.ts) names its question in `meta.question`. */
function ownQuestion(ask: AskMessage): string | undefined {
  const question = ask.meta?.["question"];
  return typeof question === "string" ? question : undefined;
}

function Choices({ choices, selected, width }: { choices: readonly AskChoice[]; selected: number; width: number }): ReactNode {
  return (
    <Box flexDirection="column" width={width}>
      {choices.map((choice, index) => (
        <Text key={index} wrap="truncate-end" {...(index === selected ? { color: "cyan" } : {})}>
          {`${index === selected ? "›" : " "} ${index + 1}. ${cleanLine(choice.label)}`}
        </Text>
      ))}
    </Box>
  );
}

/** The question and the keys that answer it. */
export function AskPrompt({ ask, selected, replyOpen, width }: { ask: AskMessage; selected: number; replyOpen: boolean; width: number }): ReactNode {
  if (ask.ask === "followup" || ask.ask === "elicitation") {
    const form = ask.ask === "elicitation" ? metaOf(ask, "elicitation") : undefined;
    const options = (form ?? metaOf(ask, "followup"))?.options ?? [];
    const keys = options.length > 0 ? "↑↓ or 1-9 picks · Enter sends · or type an answer" : "Type an answer, Enter sends";
    return (
      <Box flexDirection="column" width={width}>
        {options.map((option, index) => (
          <Text key={index} wrap="truncate-end" {...(index === selected ? { color: "cyan" } : {})}>
            {`${index === selected ? "›" : " "} ${index + 1}. ${cleanLine(option)}`}
          </Text>
        ))}
        <Text color="gray" wrap="truncate-end">
          {form === undefined ? keys : `${keys}${form.required ? "" : " (empty: leave it out)"} · Esc declines the form · field ${form.index} of ${form.count}`}
        </Text>
      </Box>
    );
  }
  // A subagent's ask names it (issue #17): the user knows which helper is asking.
  const question = `${ask.subagentId === undefined ? "" : `[subagent ${ask.subagentId}] `}${ownQuestion(ask) ?? questions[ask.ask] ?? "Answer?"}`;
  const choices = askChoices(ask);
  const heading = (keys: string): ReactNode => (
    <Text wrap="truncate-end">
      <Text color="yellow" bold>
        {question}
      </Text>
      <Text color="gray">{keys}</Text>
    </Text>
  );
  if (choices === undefined) return <Box width={width}>{heading("")}</Box>;
  if (replyOpen) {
    return (
      <Box flexDirection="column" width={width}>
        {heading("")}
        <Text color="cyan" wrap="truncate-end">
          {`${replyLabel} · Enter sends · Esc: back to the choices`}
        </Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width}>
      {heading("")}
      <Choices choices={choices} selected={Math.min(selected, choices.length - 1)} width={width} />
      <Text color="gray" wrap="truncate-end">
        {`↑↓ or 1-${choices.length} · Enter chooses · Esc stops${replyChoice(choices) === undefined ? "" : " · typing starts a reply"}`}
      </Text>
    </Box>
  );
}
