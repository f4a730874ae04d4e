import { describe, expect, it } from "vitest";
import type { Message } from "../llm/types.js";
import { openForResume } from "./resume-task.js";
import { say, useTemporaryStore } from "./test-support/temporary.js";

const fixture = useTemporaryStore();

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

describe("openForResume", () => {
  it("cuts the log to the resumed state, so resuming twice never doubles a user turn or brings leftovers back", async () => {
    const writer = await fixture.store.create({ taskId: "r", task: "do it", workspace: "/w" });
    writer.append({ kind: "ui", message: say("task", "do it") });
    writer.append({ kind: "ui", message: say("req", "{}", "api_req_started") });
    writer.append({ kind: "api", message: user("<task>do it</task>") });
    await writer.close(); // killed before any answer

    for (let resumeNumber = 1; resumeNumber <= 2; resumeNumber += 1) {
      const { writer: resumed, resume } = await openForResume(fixture.store, "r", { now: Date.now() });
      expect(resume.apiHistory).toEqual([]);
      expect(resume.uiMessages.map((message) => message.id)).toEqual(["task"]);
      // The Task sends the merged turn and is killed again before the answer.
      resumed.append({ kind: "ui", message: say(`req-${resumeNumber}`, "{}", "api_req_started") });
      resumed.append({ kind: "api", message: { role: "user", content: resume.nextUserContent } });
      await resumed.close();
      const loaded = await fixture.store.load("r");
      expect(loaded.apiHistory).toHaveLength(1);
      expect(loaded.uiMessages.map((message) => message.id)).toEqual(["task", `req-${resumeNumber}`]);
    }
  });

  it("leaves the log alone when nothing was dropped", async () => {
    const writer = await fixture.store.create({ taskId: "clean", task: "t", workspace: "/w" });
    writer.append({ kind: "ui", message: say("a", "hi") });
    writer.append({ kind: "api", message: user("t") });
    writer.append({ kind: "api", message: { role: "assistant", content: [{ type: "text", text: "done" }] } });
    await writer.close();
    const { readFile } = await import("node:fs/promises");
    const path = `${fixture.dataDir}/tasks/clean/log.jsonl`;
    const before = await readFile(path, "utf8");
    const { writer: resumed } = await openForResume(fixture.store, "clean", { now: 0 });
    await resumed.close();
    expect(await readFile(path, "utf8")).toBe(before);
  });
});
