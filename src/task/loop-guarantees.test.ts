/**
 * Behaviours of the loop that nothing else would notice breaking: each test here
 * was checked by breaking the code it guards and watching the test fail.
 */
import { describe, expect, it } from "vitest";
import { ProviderError } from "../llm/errors.js";
import type { TaskHooks } from "./contracts/seams.js";
import { deferred, text } from "./test-support/gated-provider.js";
import type { Step } from "./test-support/gated-provider.js";
import { complete, makeTask, messageText } from "./test-support/make-task.js";

const read = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;

/** The last user message of request `index`, as text. */
function lastUserText(requests: ReadonlyArray<{ messages: ReadonlyArray<{ role: string }> }>, index: number): string {
  const messages = requests[index]?.messages ?? [];
  return messageText(messages.filter((message) => message.role === "user").at(-1) as Parameters<typeof messageText>[0]);
}

function recordingHooks(order: string[]): TaskHooks {
  return {
    taskStart: async () => {},
    taskCancel: async () => void order.push("taskCancel"),
    cancelRunning: () => void order.push("cancelRunning"),
    hasTaskCancel: () => true,
  };
}

describe("loop guarantees", () => {
  it("a tool that returns after the task was aborted: its result is not applied (it would have completed the task)", async () => {
    const started = deferred();
    const { task, tools } = makeTask([[text("<finish_late>\n</finish_late>")]], { yes: true });
    tools.setHandler("finish_late", (_params, context) => {
      started.resolve();
      return new Promise((resolve) => {
        context.signal.addEventListener("abort", () => resolve({ status: "success", content: "LATE RESULT", completed: true }), { once: true });
      });
    });
    const result = task.startTask("finish late");
    await started.promise;
    await task.abortTask();
    expect((await result).status).toBe("aborted");
    expect(JSON.stringify(task.apiConversationHistory)).not.toContain("LATE RESULT");
  });

  it("the file listing goes with the first request only", async () => {
    const { task, provider } = makeTask([[text(read("a"))], [text(read("b"))], [text(complete())]], { yes: true });
    expect((await task.startTask("read")).status).toBe("completed");
    expect(lastUserText(provider.requests, 0)).toContain("<environment_details>files</environment_details>");
    expect(lastUserText(provider.requests, 1)).toContain("<environment_details></environment_details>");
    expect(lastUserText(provider.requests, 2)).toContain("<environment_details></environment_details>");
  });

  it("the TaskCancel hook does not run for a task that had completed", async () => {
    const order: string[] = [];
    const { task } = makeTask([[text(complete())]], { yes: true, hooks: recordingHooks(order) });
    expect((await task.startTask("done at once")).status).toBe("completed");
    await task.abortTask(); // the host closes after the end
    expect(order).not.toContain("taskCancel");
  });

  it("an abort stops running commands (and hooks) before the TaskCancel hook runs", async () => {
    const order: string[] = [];
    const started = deferred();
    const { task, tools } = makeTask([[text("<wait>\n</wait>")]], { yes: true, hooks: recordingHooks(order) });
    const abortAll = tools.abortAll.bind(tools);
    tools.abortAll = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20)); // stopping a command takes a moment
      order.push("abortAll");
      await abortAll();
    };
    const waiting = tools.setHandler.bind(tools);
    waiting("wait", (_params, context) => {
      started.resolve();
      return new Promise((resolve) => context.signal.addEventListener("abort", () => resolve({ status: "error", content: "aborted" }), { once: true }));
    });
    const result = task.startTask("wait");
    await started.promise;
    await task.abortTask();
    expect((await result).status).toBe("aborted");
    expect(order).toEqual(["cancelRunning", "abortAll", "taskCancel"]);
  });

  it("after the user chooses retry, the automatic retries start again before the next question", async () => {
    const overloaded = (): Step[] => [{ type: "fail", error: new ProviderError({ kind: "overloaded", message: "overloaded" }) }];
    const failures = Array.from({ length: 8 }, overloaded);
    const { task, host } = makeTask([...failures, [text(complete())]], { answer: () => ({ response: "yes" }) });
    expect((await task.startTask("retry")).status).toBe("completed");
    // 1 + 3 automatic tries, the question, 1 + 3 more, the question, then the answer.
    expect(host.asks.filter((ask) => ask.ask === "api_req_failed")).toHaveLength(2);
    expect(host.finalMessages().filter((message) => message.type === "say" && message.say === "error_retry")).toHaveLength(6);
  });

  it("SPEC P5/T14: when the serial gate closes, the history's assistant message ends with the tool that ran", async () => {
    const { task } = makeTask([[text(`First.\n${read("a")}\nThen more.\n${read("b")}\nAnd text after.`)], [text(complete())]], { yes: true });
    expect((await task.startTask("read")).status).toBe("completed");
    const assistant = JSON.stringify(task.apiConversationHistory[1]);
    expect(assistant).toContain("<path>a</path>");
    expect(assistant).not.toContain("<path>b</path>");
    expect(assistant).not.toContain("And text after");
  });
});
