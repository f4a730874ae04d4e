import { describe, expect, it } from "vitest";
import { complete, makeTask, messageText } from "./test-support/make-task.js";
import { deferred, text, textChunks } from "./test-support/gated-provider.js";
import { neverAnswer } from "./test-support/test-host.js";

const read = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;

describe("Task abort (T5)", () => {
  it("T5: abort while waiting for the first chunk closes the stream", async () => {
    const gate = deferred();
    const { task, provider } = makeTask([[{ type: "gate", wait: () => gate.promise }, text("late")]]);
    const running = task.startTask("t");
    await new Promise((resolve) => setTimeout(resolve, 10));
    await task.abortTask();
    expect((await running).status).toBe("aborted");
    expect(provider.closedEarly).toBe(1);
  });

  it("T5: abort mid-stream keeps the partial answer in the history as interrupted", async () => {
    const gate = deferred();
    const { task, log, host } = makeTask([[...textChunks("Partial answer so far", 4), { type: "gate", wait: () => gate.promise }, text(" never")]]);
    const running = task.startTask("t");
    while (!host.texts().join("").includes("so far")) await new Promise((resolve) => setTimeout(resolve, 2));
    await task.abortTask();
    expect((await running).status).toBe("aborted");
    const last = task.apiConversationHistory.at(-1)!;
    expect(last.role).toBe("assistant");
    expect(messageText(last)).toContain("Partial answer so far");
    expect(messageText(last)).toContain("[Response interrupted by user]");
    expect(log.entries.at(-1)).toMatchObject({ kind: "status", status: "aborted" });
    expect(host.says("api_req_started")[0]?.meta).toMatchObject({ cancelReason: "user_cancelled" });
  });

  it("T5: abort mid-stream shows and logs the answer as far as it streamed, the same text the history keeps", async () => {
    const gate = deferred();
    const answer = "First line of the answer.\nSecond line goes on and on";
    const { task, log, host, provider } = makeTask([[...textChunks(answer, 3), { type: "gate", wait: () => gate.promise }, text(" never")]], {
      extra: { presentationFrameMs: 1_000 },
    });
    const running = task.startTask("t");
    // Every chunk before the gate is in: the abort comes in the middle of a presentation frame.
    while (provider.sent < Math.ceil(answer.length / 3)) await new Promise((resolve) => setTimeout(resolve, 2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await task.abortTask();
    expect((await running).status).toBe("aborted");
    expect(messageText(task.apiConversationHistory.at(-1))).toContain(answer);
    const logged = log.entries.flatMap((entry) => (entry.kind === "ui" && entry.message.type === "say" && entry.message.say === "text" ? [entry.message] : []));
    expect(logged.at(-1)).toMatchObject({ text: answer, partial: false });
    expect(host.texts().at(-1)).toBe(answer);
  });

  it("T5: an abort after the user accepted the completion leaves the task completed (quitting right after Enter)", async () => {
    const gate = deferred();
    const { task, log, host } = makeTask([[text(complete("all done")), { type: "gate", wait: () => gate.promise }, text("\n")]]);
    const running = task.startTask("t");
    await host.nextAsk();
    // The user pressed Enter at the result; the stream has not ended yet when Ctrl+C comes.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await task.abortTask();
    gate.resolve();
    expect(await running).toEqual({ status: "completed" });
    expect(log.entries.at(-1)).toMatchObject({ kind: "status", status: "completed" });
    expect(host.finalMessages().map((message) => message.text)).not.toContain("Task interrupted. Nothing done so far is lost: it can be resumed.");
  });

  it("T5: abort during a tool stops it, kills what runs, and keeps finished results", async () => {
    const { task, tools } = makeTask([[text(`${read("a")}\n<wait>\n</wait>`)]], { yes: true, parallelTools: true });
    const running = task.startTask("t");
    while (!tools.calls.some((call) => call.name === "wait")) await new Promise((resolve) => setTimeout(resolve, 2));
    await task.abortTask();
    expect((await running).status).toBe("aborted");
    expect(tools.abortAllCalls).toBe(1);
    const results = task.apiConversationHistory.at(-1)!;
    expect(results.role).toBe("user");
    expect(messageText(results)).toContain("contents of a");
  });

  it("T5: abort during an ask ends the wait", async () => {
    const { task, host } = makeTask([[text(`<write_to_file>\n<path>x</path>\n<content>1</content>\n</write_to_file>`)]], { answer: neverAnswer });
    const running = task.startTask("t");
    await host.nextAsk();
    await task.abortTask();
    expect((await running).status).toBe("aborted");
  });

  it("T5: the TaskCancel hook runs last, only when decided before the flag", async () => {
    const order: string[] = [];
    const gate = deferred();
    const { task } = makeTask([[{ type: "gate", wait: () => gate.promise }]], {
      hooks: {
        taskStart: async () => {},
        taskCancel: async () => {
          order.push("cancel hook");
        },
        cancelRunning: () => order.push("cancel running hooks"),
        hasTaskCancel: () => true,
      },
    });
    const running = task.startTask("t");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await task.abortTask();
    await running;
    expect(order).toEqual(["cancel running hooks", "cancel hook"]);
  });
});
