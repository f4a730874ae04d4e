import { describe, expect, it } from "vitest";
import { complete, makeTask, messageText } from "./test-support/make-task.js";
import { deferred, text, textChunks } from "./test-support/gated-provider.js";

const read = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;

describe("messages typed while the task works reach its next request", () => {
  it("a message queued during a step reaches the model in its very next request, and is shown as the user's", async () => {
    const queue: string[] = [];
    const held = deferred();
    const { task, provider, host } = makeTask([[text(`Reading.\n`), { type: "gate", wait: () => held.promise }, ...textChunks(read("a.ts"), 5)], textChunks(complete(), 5)], {
      yes: true,
      extra: { pendingUserMessages: () => queue.splice(0) },
    });
    const running = task.startTask("look at a.ts");
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Typed while the first answer streams: not sent yet.
    queue.push("also check b.ts");
    expect(provider.requests).toHaveLength(1);
    held.resolve();
    expect(await running).toEqual({ status: "completed" });
    const second = provider.requests[1]!.messages;
    const last = messageText(second[second.length - 1]);
    expect(last).toContain("[read_file for 'a.ts'] Result:");
    expect(last).toContain("also check b.ts");
    expect(messageText(provider.requests[0]!.messages[0])).not.toContain("also check b.ts");
    expect(host.updates.some((message) => message.type === "say" && message.say === "user_feedback" && message.text === "also check b.ts")).toBe(true);
    expect(queue).toEqual([]);
  });
});
