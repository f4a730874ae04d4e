/** ask_followup_question: asks the user; in --yes mode there is nobody to ask. */
import { invalidParameter, success, yesModeNoUser } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export function parseOptions(text: string | undefined): string[] | undefined | "invalid" {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed;
  } catch {
    // fall through
  }
  return "invalid";
}

export const askFollowupQuestionTool: ToolDefinition = {
  name: "ask_followup_question",
  description:
    "Ask the user a question when you need information you cannot find with the tools (a choice, a missing detail). " +
    "Ask one clear, specific question; offer 2-5 answers in options when that helps. Do not use this to ask " +
    "for approval of a tool: tools ask by themselves.",
  parameters: [
    { name: "question", required: true, description: "The question to ask.", usage: "Your question here" },
    {
      name: "options",
      required: false,
      type: "array",
      items: { type: "string" },
      description: 'Possible answers the user can pick, as a JSON array of strings, e.g. ["Use PostgreSQL", "Use SQLite"].',
      usage: 'Array of options here (optional), e.g. ["Option 1", "Option 2"]',
    },
  ],
  readOnly: true,
  // No partial presentation: the question is shown once, by the ask itself.
  async execute(params, runtime) {
    const question = params["question"] ?? "";
    const options = parseOptions(params["options"]);
    if (options === "invalid") {
      return invalidParameter({ tool: "ask_followup_question", parameter: "options", problem: 'it must be a JSON array of strings, e.g. ["Yes", "No"].' });
    }
    if (runtime.options.yes) {
      runtime.context.say("tool", question, { key: runtime.callId, meta: { tool: "ask_followup_question", unanswered: true } });
      return success(yesModeNoUser);
    }
    const answer = await runtime.context.ask("followup", question, { meta: { tool: "ask_followup_question", ...(options ? { options } : {}) } });
    const text = answer.text?.trim() ?? "";
    if (answer.response === "no" && text === "") return success("The user chose not to answer. Continue on your own judgement or ask differently.");
    if (text === "") return success("<answer>\nyes\n</answer>");
    return success(`<answer>\n${text}\n</answer>`);
  },
};
