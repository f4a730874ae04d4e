/** Messages typed while a step runs (the terminal UI): shown and editable as typed, delivered with their @mentions and MCP references expanded. */
import type { Session } from "../session/session.js";
import { mayReferenceMcp } from "../session/mcp-references.js";
import { PendingMessages } from "../session/pending-messages.js";
import { expandMentionsWithImages } from "./mentions.js";

export function queuedMessages(options: { workspace: () => string; session: () => Session | undefined }): PendingMessages {
  return new PendingMessages(
    (text) => text.includes("@") || mayReferenceMcp(text),
    async (text) => {
      // Files first, as for the first message; the task's session then expands `/mcp__server__prompt` and `@server:uri`.
      const withMentions = text.includes("@") ? (await expandMentionsWithImages(text, { workspace: options.workspace() })).text : text;
      return (await options.session()?.expandMessage(withMentions)) ?? withMentions;
    },
  );
}
