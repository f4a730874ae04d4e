/**
 * The user turn that opens a round (SPEC T2): what the round answers (the task,
 * tool results or a reminder), then what the user sent while the task worked,
 * the note at the mistake limit (SPEC T9) and the environment details.
 */
import type { ContentBlock } from "../llm/types.js";

export async function userTurn(
  userContent: readonly ContentBlock[],
  parts: {
    /** Messages the user queued meanwhile: each is shown, then given to the model. */
    pendingUserMessages: readonly string[];
    say: (text: string) => void;
    /** Only when the mistake limit is reached. */
    atMistakeLimit?: () => Promise<ContentBlock>;
    environmentDetails: () => Promise<string>;
  },
): Promise<ContentBlock[]> {
  const content = [...userContent];
  for (const text of parts.pendingUserMessages) {
    parts.say(text);
    content.push({ type: "text", text: `<user_message>\nThe user sent this while you worked; take it into account now:\n${text}\n</user_message>` });
  }
  if (parts.atMistakeLimit) content.push(await parts.atMistakeLimit());
  content.push({ type: "text", text: await parts.environmentDetails() });
  return content;
}
