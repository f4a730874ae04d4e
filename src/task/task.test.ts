import { describe, expect, it } from "vitest";
import { ProviderError } from "../llm/errors.js";
import { complete, makeTask, messageText } from "./test-support/make-task.js";
import { deferred, text, textChunks } from "./test-support/gated-provider.js";

const read = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;

describe("Task loop", () => {
  it("T2, T6: tool results become the next request's user content, until completion", async () => {
    const { task, provider, tools } = makeTask([textChunks(`Let me look.\n${read("a.ts")}`, 7), textChunks(`Done.\n${complete("fixed")}`, 5)], { yes: true });
    const result = await task.startTask("fix it");
    expect(result).toEqual({ status: "completed" });
    expect(tools.calls.map((call) => call.name)).toEqual(["read_file", "attempt_completion"]);
    expect(provider.requests).toHaveLength(2);
    const second = provider.requests[1]!.messages;
    expect(second.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(messageText(second[0])).toContain("<task>\nfix it\n</task>");
    expect(messageText(second[1])).toContain("<read_file>");
    expect(messageText(second[2])).toContain("[read_file for 'a.ts'] Result:");
    expect(messageText(second[2])).toContain("contents of a.ts");
  });

  it("T1: a task never has two requests in flight", async () => {
    const { task, provider } = makeTask([textChunks(read("a"), 3), textChunks(read("b"), 3), textChunks(complete(), 3)], { yes: true });
    await task.startTask("t");
    expect(provider.requests).toHaveLength(3);
    expect(provider.maxInFlight).toBe(1);
  });

  it("T3: a round without a tool gets the no-tools reminder (xml format reminder in xml mode)", async () => {
    const { task, provider } = makeTask([[text("I think it is fine.")], textChunks(complete(), 4)], { yes: true });
    await task.startTask("t");
    const reminder = messageText(provider.requests[1]!.messages.at(-1));
    expect(reminder).toContain("used no tool");
    expect(reminder).toContain("<attempt_completion>");
  });

  it("T3: in native mode the reminder has no xml format", async () => {
    const { task, provider } = makeTask([[text("fine")], [{ type: "tool_call", index: 0, id: "c1", name: "attempt_completion", argumentsDelta: '{"result":"ok"}' }]], { yes: true, protocol: "native" });
    await task.startTask("t").catch(() => undefined);
    const reminder = messageText(provider.requests[1]!.messages.at(-1));
    expect(reminder).toContain("used no tool");
    expect(reminder).not.toContain("<attempt_completion>");
  });

  it("T4: say updates a partial message in place by a stable id; ask returns that ask's answer", async () => {
    const { task, host } = makeTask([textChunks("Hello there, I will ask.\n<ask_followup_question>\n<question>Which?</question>\n</ask_followup_question>", 4), textChunks(complete(), 4)], {
      answer: (message) => (message.ask === "followup" ? { response: "message", text: "the blue one" } : { response: "yes" }),
    });
    await task.startTask("t");
    const textUpdates = host.updates.filter((message) => message.type === "say" && message.say === "text");
    expect(new Set(textUpdates.map((message) => message.id)).size).toBe(1);
    expect(textUpdates.some((message) => message.partial)).toBe(true);
    expect(textUpdates.at(-1)).toMatchObject({ partial: false, text: "Hello there, I will ask." });
    expect(host.says("user_feedback").map((message) => message.text)).toEqual(["the blue one"]);
  });

  it("T4: a say while an ask is open does not cancel the ask", async () => {
    const { task, host } = makeTask([textChunks(`<ask_followup_question>\n<question>Q?</question>\n</ask_followup_question>`, 5), textChunks(complete(), 5)]);
    host.setAnswerer(async (message) => {
      if (message.ask !== "followup") return { response: "yes" };
      task.say("info", "something happened meanwhile");
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { response: "message", text: "answer after a say" };
    });
    const result = await task.startTask("t");
    expect(result.status).toBe("completed");
    expect(host.says("user_feedback")[0]?.text).toBe("answer after a say");
  });

  it("P4, P-perf-3: a tool runs as soon as its block completes, while the answer still streams", async () => {
    const { task, provider, tools } = makeTask([[...textChunks(read("a.ts"), 6), ...textChunks(" and some more text after the tool", 2)], textChunks(complete(), 4)], {
      yes: true,
      parallelTools: true,
    });
    await task.startTask("t");
    const call = tools.calls[0]!;
    const firstTurnChunks = Math.ceil(read("a.ts").length / 6) + Math.ceil(" and some more text after the tool".length / 2);
    expect(call.finishedAt).toBeLessThan(firstTurnChunks);
    expect(provider.requests).toHaveLength(2);
  });

  it("P5: in serial mode the stream stops after the first tool and the history says so", async () => {
    const { task, provider, tools } = makeTask([[...textChunks(read("a") + "\n" + read("b"), 4), text("tail")], textChunks(complete(), 4)], { yes: true });
    await task.startTask("t");
    expect(tools.calls.filter((call) => call.name === "read_file").map((call) => call.params["path"])).toEqual(["a"]);
    expect(provider.closedEarly).toBe(1);
    const assistant = messageText(provider.requests[1]!.messages[1]);
    expect(assistant).toContain("[Response interrupted by a tool use result.");
    expect(assistant).not.toContain("tail");
    expect(assistant).not.toContain("<path>b</path>");
  });

  it("P5: blocks already parsed after a used tool are not executed, and the model is told why", async () => {
    const both = `${read("a")}\n${read("b")}`;
    const { task, provider, tools } = makeTask([[text(both)], textChunks(complete(), 4)], { yes: true });
    await task.startTask("t");
    expect(tools.calls.filter((call) => call.name === "read_file").map((call) => call.params["path"])).toEqual(["a"]);
    expect(messageText(provider.requests[1]!.messages[2])).toContain("Tool read_file was not executed because a tool was already used");
  });

  it("P5: with parallel tools enabled every tool in the answer runs", async () => {
    const { task, tools } = makeTask([[text(`${read("a")}\n${read("b")}`)], textChunks(complete(), 4)], { yes: true, parallelTools: true });
    await task.startTask("t");
    expect(tools.calls.filter((call) => call.name === "read_file").map((call) => call.params["path"])).toEqual(["a", "b"]);
  });

  it("T14, P9: a rejection skips later blocks and cuts the history with the feedback marker", async () => {
    const answer = `<write_to_file>\n<path>x</path>\n<content>1</content>\n</write_to_file>\nMore text that must not show.\n${read("b")}`;
    const { task, host, provider, tools } = makeTask([[text(answer)], textChunks(complete(), 4)], {
      answer: (message) => (message.ask === "tool" ? { response: "no", text: "not that file" } : { response: "yes" }),
      parallelTools: true,
    });
    await task.startTask("t");
    expect(tools.calls.map((call) => call.name)).toEqual(["write_to_file", "attempt_completion"]);
    expect(host.texts().join("")).not.toContain("must not show");
    const history = provider.requests[1]!.messages;
    expect(messageText(history[1])).toContain("[Response interrupted by user feedback]");
    expect(messageText(history[1])).not.toContain("must not show");
    expect(messageText(history[2])).toContain("not that file");
    expect(messageText(history[2])).toContain("skipped because the user rejected");
  });

  it("T12: usage chunks end the request's api_req_started message with tokens and cost", async () => {
    const { task, host } = makeTask([[{ type: "usage", inputTokens: 1000, outputTokens: 200, cacheReadTokens: 50, cost: 0.25 }, ...textChunks(complete(), 8)]], { yes: true });
    await task.startTask("t");
    const started = host.says("api_req_started");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ partial: false, meta: { tokensIn: 1000, tokensOut: 200, cacheReads: 50, cost: 0.25 } });
  });

  it("T12: the request's message has its tokens and cost once its stream ends, while its tool still waits for an approval", async () => {
    let seenAtAsk: unknown;
    const { task, host } = makeTask(
      [[{ type: "usage", inputTokens: 1000, outputTokens: 200, cost: 0.25 }, ...textChunks("<write_to_file>\n<path>x</path>\n<content>1</content>\n</write_to_file>", 8)], textChunks(complete(), 4)],
      {
        // A person takes a while to answer: the stream has ended meanwhile.
        answer: async (message) => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          if (message.ask === "tool") seenAtAsk = host.says("api_req_started").at(-1)?.meta;
          return { response: "yes" };
        },
      },
    );
    await task.startTask("t");
    expect(seenAtAsk).toMatchObject({ tokensIn: 1000, tokensOut: 200, cost: 0.25 });
  });

  it("T13: an empty answer is recorded and a retry is offered", async () => {
    const { task, host, provider } = makeTask([[], textChunks(complete(), 4)], {
      answer: () => ({ response: "yes" }),
    });
    const result = await task.startTask("t");
    expect(result.status).toBe("completed");
    expect(host.says("empty_assistant_message")).toHaveLength(1);
    expect(host.asks.map((ask) => ask.ask)).toContain("api_req_failed");
    expect(provider.requests).toHaveLength(2);
  });

  it("T17: a tool block left open at the end of the stream is completed and runs", async () => {
    const { task, tools } = makeTask([[text("<read_file>\n<path>open.ts</path>\n")], textChunks(complete(), 4)], { yes: true });
    await task.startTask("t");
    expect(tools.calls[0]).toMatchObject({ name: "read_file", params: { path: "open.ts" } });
  });

  it("T18: startTask says the task, runs the TaskStart hook, then requests", async () => {
    const order: string[] = [];
    const { task, host, provider } = makeTask([textChunks(complete(), 4)], {
      yes: true,
      hooks: {
        taskStart: async () => {
          order.push(`hook after ${provider.requests.length} requests`);
        },
        taskCancel: async () => {},
        cancelRunning: () => {},
        hasTaskCancel: () => false,
      },
    });
    await task.startTask("the task");
    expect(host.finalMessages()[0]).toMatchObject({ type: "say", say: "task", text: "the task" });
    expect(order).toEqual(["hook after 0 requests"]);
  });

  it("T19: the Task hands unknown tools to the executor, which reports a mistake", async () => {
    const { task, tools, provider } = makeTask([[text("<fail>\n</fail>")], textChunks(complete(), 4)], { yes: true });
    await task.startTask("t");
    expect(tools.calls[0]?.name).toBe("fail");
    expect(messageText(provider.requests[1]!.messages[2])).toContain("it failed");
  });

  it("P12, P14: reasoning is shown as reasoning; thinking tags and tag fragments never reach the user", async () => {
    const { task, host } = makeTask(
      [[{ type: "reasoning", text: "let me think" }, ...textChunks("<thinking>plan</thinking> Visible text. <read_fi", 3), text("le>\n<path>a</path>\n</read_file>")], textChunks(complete(), 4)],
      { yes: true },
    );
    await task.startTask("t");
    expect(host.says("reasoning")[0]).toMatchObject({ text: "let me think", partial: false });
    for (const update of host.updates) {
      if (update.type === "say" && update.say === "text") {
        expect(update.text).not.toContain("<thinking>");
        expect(update.text).not.toMatch(/<\/?[a-z_]*$/);
      }
    }
    expect(host.texts()[0]).toBe("plan Visible text.");
  });
});

describe("Task failures and retries", () => {
  it("T11: a failure before the first chunk is retried with backoff, shown as error_retry", async () => {
    const overloaded = new ProviderError({ kind: "overloaded", status: 529, message: "Overloaded." });
    const { task, host, provider } = makeTask([[{ type: "fail", error: overloaded }], [{ type: "fail", error: overloaded }], textChunks(complete(), 4)], { yes: true });
    const result = await task.startTask("t");
    expect(result.status).toBe("completed");
    expect(provider.requests).toHaveLength(3);
    expect(host.says("error_retry").map((message) => message.meta?.["attempt"])).toEqual([1, 2]);
  });

  it("T11: after the automatic retries the user is asked (api_req_failed); no ends the task", async () => {
    const error = new ProviderError({ kind: "server", status: 500, message: "boom" });
    const fail = [{ type: "fail" as const, error }];
    const { task, host } = makeTask([fail, fail, fail, fail], { answer: () => ({ response: "no" }) });
    const result = await task.startTask("t");
    expect(result.status).toBe("failed");
    expect(host.asks.map((ask) => ask.ask)).toEqual(["api_req_failed"]);
  });

  it("T11: an auth error is not retried; in yes-mode the task fails with the message", async () => {
    const error = new ProviderError({ kind: "auth", status: 401, message: "Invalid API key: set ANTHROPIC_API_KEY." });
    const { task, provider } = makeTask([[{ type: "fail", error }]], { yes: true });
    const result = await task.startTask("t");
    expect(result).toMatchObject({ status: "failed", error: expect.stringContaining("ANTHROPIC_API_KEY") });
    expect(provider.requests).toHaveLength(1);
  });

  it("a stream that fails after its first chunk keeps the partial answer, runs no half tool, and retries", async () => {
    const dropped = new ProviderError({ kind: "network", message: "connection dropped" });
    const { task, provider, tools } = makeTask([[...textChunks("Working on it. <write_to_file>\n<path>x</path>\n<content>hal", 5), { type: "fail", error: dropped }], textChunks(complete(), 4)], { yes: true });
    const result = await task.startTask("t");
    expect(result.status).toBe("completed");
    expect(tools.calls.map((call) => call.name)).toEqual(["attempt_completion"]);
    const history = provider.requests[1]!.messages;
    expect(messageText(history[1])).toContain("Working on it.");
    expect(messageText(history[1])).toContain("[Response interrupted by API error: connection dropped]");
    expect(messageText(history[2])).toContain("cut off by an API error");
  });

  it("T9: consecutive mistakes reach the limit; in yes-mode the task fails", async () => {
    const { task, provider } = makeTask([[text("no tool")], [text("still none")], [text("nope")], [text("never")]], { yes: true, maxMistakes: 3 });
    const result = await task.startTask("t");
    expect(result).toMatchObject({ status: "failed", error: expect.stringContaining("3 mistakes in a row") });
    expect(provider.requests).toHaveLength(3);
  });

  it("T9: at the limit the user is asked, and the guidance reaches the model", async () => {
    const { task, host, provider } = makeTask([[text("a")], [text("b")], textChunks(complete(), 4)], {
      maxMistakes: 2,
      answer: (message) => (message.ask === "mistake_limit_reached" ? { response: "message", text: "use attempt_completion" } : { response: "yes" }),
    });
    const result = await task.startTask("t");
    expect(result.status).toBe("completed");
    expect(host.asks[0]?.ask).toBe("mistake_limit_reached");
    expect(messageText(provider.requests[2]!.messages.at(-1))).toContain("use attempt_completion");
  });

  it("T9: a successful tool resets the count", async () => {
    const { task } = makeTask([[text("a")], [text("b")], textChunks(read("x"), 4), [text("c")], [text("d")], textChunks(complete(), 4)], { yes: true, maxMistakes: 3 });
    expect((await task.startTask("t")).status).toBe("completed");
  });

  it("T9: the same call repeated warns at 3 and reaches the limit at 5", async () => {
    const turns = Array.from({ length: 6 }, () => textChunks(read("same"), 5));
    const { task, provider } = makeTask(turns, { yes: true, maxMistakes: 3 });
    const result = await task.startTask("t");
    expect(messageText(provider.requests[3]!.messages.at(-1))).toContain("same parameters several times");
    expect(messageText(provider.requests[2]!.messages.at(-1))).not.toContain("same parameters several times");
    expect(result.status).toBe("failed");
    expect(provider.requests).toHaveLength(5);
  });
});

describe("Task seams", () => {
  it("T15: waits for MCP servers with a 10 s limit and says which are not ready, and why where one failed", async () => {
    const waits: number[] = [];
    const { task, host, provider } = makeTask([textChunks(complete(), 4)], {
      yes: true,
      mcp: {
        waitForServers: async (timeoutMs) => {
          waits.push(timeoutMs);
          return { ready: ["fs"], pending: ["slow", "remote"], errors: { remote: "fetch failed" } };
        },
        promptSection: () => "MCP SERVERS: fs",
      },
    });
    await task.startTask("t");
    expect(waits).toEqual([10_000]);
    expect(host.says("warning")[0]?.text).toBe("MCP servers not ready yet, going on without them: slow; remote (fetch failed)");
    expect(provider.requests[0]!.systemPrompt).toContain("MCP SERVERS: fs");
  });

  it("T16, P10: tools that change files wait for the first checkpoint; read-only tools do not", async () => {
    const gate = deferred();
    const events: string[] = [];
    const { task, tools } = makeTask([[text(`${read("a")}\n<write_to_file>\n<path>b</path>\n<content>x</content>\n</write_to_file>`)], textChunks(complete(), 4)], {
      yes: true,
      parallelTools: true,
      checkpoints: {
        startInitial: () => events.push("checkpoint started"),
        waitInitial: () => gate.promise,
        noteChanges: () => {},
        commit: async (reason) => {
          events.push(`commit ${reason}`);
          return "abc";
        },
      },
    });
    const running = task.startTask("t");
    while (tools.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(tools.calls.map((call) => call.name)).toEqual(["read_file"]);
    gate.resolve();
    await running;
    expect(tools.calls.map((call) => call.name)).toEqual(["read_file", "write_to_file", "attempt_completion"]);
    expect(events).toEqual(["checkpoint started", "commit turn", "commit completion"]);
  });

  it("checkpoints are told the files the tools wrote, and that a command may have changed anything", async () => {
    const events: Array<string | readonly string[] | undefined> = [];
    const write = (path: string): string => `<write_to_file>\n<path>${path}</path>\n<content>x</content>\n</write_to_file>`;
    const command = `<execute_command>\n<command>make</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
    const { task } = makeTask([[text(`${write("a")}\n${write("b")}`)], [text(command)], [text(read("a"))], textChunks(complete(), 4)], {
      yes: true,
      parallelTools: true,
      checkpoints: {
        startInitial: () => {},
        waitInitial: async () => {},
        noteChanges: (paths) => events.push(paths),
        commit: async (reason) => {
          events.push(reason);
          return "abc";
        },
      },
    });
    expect((await task.startTask("t")).status).toBe("completed");
    // No turn checkpoint after the read-only turn.
    expect(events).toEqual([["a"], ["b"], "turn", undefined, "turn", "completion"]);
  });

  it("T10: the streaming state is reset each round (a rejection does not carry over)", async () => {
    let asks = 0;
    const write = `<write_to_file>\n<path>x</path>\n<content>1</content>\n</write_to_file>`;
    const { task, tools } = makeTask([[text(write)], [text(write)], textChunks(complete(), 4)], {
      answer: (message) => {
        if (message.ask !== "tool") return { response: "yes" };
        asks += 1;
        return asks === 1 ? { response: "no" } : { response: "yes" };
      },
    });
    expect((await task.startTask("t")).status).toBe("completed");
    expect(tools.calls.map((call) => call.name)).toEqual(["write_to_file", "write_to_file", "attempt_completion"]);
  });

  it("persists final messages and the API history to the task log as they happen", async () => {
    const { task, log } = makeTask([textChunks(`Hi.\n${complete()}`, 3)], { yes: true });
    await task.startTask("t");
    const ui = log.entries.filter((entry) => entry.kind === "ui");
    expect(ui.every((entry) => entry.kind === "ui" && !entry.message.partial)).toBe(true);
    expect(ui.map((entry) => (entry.kind === "ui" && entry.message.type === "say" ? entry.message.say : ""))).toEqual(expect.arrayContaining(["task", "text", "api_req_started", "completion_result"]));
    expect(log.entries.filter((entry) => entry.kind === "api")).toHaveLength(2);
  });
});

describe("Task and hosts that cannot answer", () => {
  it("an ask the host cannot answer fails the task, even inside a tool", async () => {
    const { task, provider } = makeTask([textChunks(`<write_to_file>\n<path>x</path>\n<content>1</content>\n</write_to_file>`, 6), textChunks(complete(), 4)], {
      answer: () => Promise.reject(new Error("no answer to ask tool: standard input is closed")),
    });
    const result = await task.startTask("t");
    expect(result).toEqual({ status: "failed", error: "no answer to ask tool: standard input is closed" });
    expect(provider.requests).toHaveLength(1);
  });
});

describe("Task log failures", () => {
  it("a log that cannot be written is reported once and the task goes on", async () => {
    const { task, host } = makeTask([textChunks(`Hello.\n${complete()}`, 5)], {
      yes: true,
      extra: {
        log: {
          append: () => {
            throw new Error("ENOSPC: no space left on device");
          },
          flush: async () => {},
        },
      },
    });
    expect((await task.startTask("t")).status).toBe("completed");
    const warnings = host.says("warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toContain("ENOSPC");
  });
});

describe("P-perf-2: previews of a streaming tool call", () => {
  it("a partial tool block is previewed at most once per update interval, not on every chunk", async () => {
    const content = "x".repeat(2000);
    const write = `<write_to_file>\n<path>big.txt</path>\n<content>\n${content}\n</content>\n</write_to_file>`;
    const { task, tools } = makeTask([textChunks(write, 10), textChunks(complete(), 8)], {
      yes: true,
      extra: { partialUpdateIntervalMs: 60_000, now: () => 1_000_000 },
    });
    expect((await task.startTask("t")).status).toBe("completed");
    expect(tools.partials.filter((block) => block.name === "write_to_file")).toHaveLength(1);
    expect(tools.calls[0]?.params["content"]).toBe(content);
  });
});
