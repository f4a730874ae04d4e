import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { runCli, startCli, withoutSandboxNotice } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

type ApiFormat = "anthropic" | "openai";
type Protocol = "xml" | "native";

function scenarioFor(protocol: Protocol): Scenario {
  if (protocol === "xml") {
    return {
      chunkSize: 7,
      turns: [
        { text: "Writing the file.\n<write_to_file>\n<path>hello.txt</path>\n<content>\nhello from cairn\n</content>\n</write_to_file>" },
        { text: "Checking it.\n<execute_command>\n<command>cat hello.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>Wrote hello.txt</result>\n</attempt_completion>", usage: { inputTokens: 500, outputTokens: 40 } },
      ],
    };
  }
  return {
    chunkSize: 5,
    turns: [
      { text: "Writing the file.", toolCalls: [{ name: "write_to_file", arguments: { path: "hello.txt", content: "hello from cairn\n" } }] },
      { toolCalls: [{ name: "execute_command", arguments: { command: "cat hello.txt", requires_approval: false } }] },
      { toolCalls: [{ name: "attempt_completion", arguments: { result: "Wrote hello.txt" } }], usage: { inputTokens: 500, outputTokens: 40 } },
    ],
  };
}

function providerArgs(format: ApiFormat, server: ScriptedServer): string[] {
  return format === "anthropic"
    ? ["--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key-anthropic", "--model", "claude-sonnet-5-5"]
    : ["--provider", "openai", "--base-url", `${server.url}/v1`, "--api-key", "test-key-openai", "--model", "gpt-4.1"];
}

/** The text a request carried as tool results, in either API's format. */
function toolResultsText(body: unknown): string {
  return JSON.stringify(body);
}

const cli = useCliFixture();

describe("cairn run end to end (real CLI, real SDKs over HTTP)", () => {
  for (const format of ["anthropic", "openai"] as const) {
    for (const protocol of ["xml", "native"] as const) {
      it(`T2, T6: ${format} API, ${protocol} protocol: writes a file, runs a command, completes`, async () => {
        const server = await cli.startServer(scenarioFor(protocol));
        const result = await runCli(["run", "--json", "--yes", "--tool-protocol", protocol, ...providerArgs(format, server), "write hello.txt"], {
          env: cli.sandbox.env,
          cwd: cli.sandbox.workspace,
        });
        expect(result.stderr).not.toContain("test-key");
        expect(result.status).toBe(0);
        // xml: the value is trimmed, and write_to_file puts the final newline back (#11)
        expect(await readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).toBe("hello from cairn\n");
        expect(result.events[0]).toMatchObject({ type: "say", say: "task", text: "write hello.txt" });
        const taskId = result.events[0]?.["taskId"];
        expect(typeof taskId).toBe("string");
        // Every whole line names the task (a delta line carries only what changed: docs/json-events.md).
        expect(result.events.filter((event) => "text" in event || event["type"] === "result").every((event) => event["taskId"] === taskId)).toBe(true);
        expect(result.events.some((event) => event["say"] === "completion_result" && event["text"] === "Wrote hello.txt")).toBe(true);
        expect(server.requests).toHaveLength(3);
        const third = toolResultsText(server.requests[2]?.body);
        expect(third).toContain("hello from cairn");
        const first = server.requests[0]?.body as Record<string, unknown>;
        const system = format === "anthropic" ? JSON.stringify(first["system"]) : JSON.stringify((first["messages"] as unknown[])[0]);
        expect(system).toContain("TOOL USE");
        if (protocol === "xml") {
          expect(system).toContain("write_to_file");
          expect(first["tools"]).toBeUndefined();
        } else {
          expect(JSON.stringify(first["tools"])).toContain("write_to_file");
        }
        const usage = result.events.filter((event) => event["say"] === "api_req_started" && event["partial"] === false);
        expect(usage).toHaveLength(3);
      });
    }
  }

  it("exits 2 with a message naming the variable when no key is set", async () => {
    const result = await cli.run(["run", "--provider", "anthropic", "do something"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
  });

  it("exits 1 when the provider rejects the key, naming what to set, never printing the key", async () => {
    const server = await cli.startServer({ turns: [{ error: { status: 401 } }] });
    const result = await cli.run(["run", "--yes", ...providerArgs("anthropic", server), "task"]);
    expect(result.status).toBe(1);
    expect(result.stderr + result.stdout).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr + result.stdout).not.toContain("test-key-anthropic");
  });

  it("T11: retries a 529 and a 429 with retry-after, then completes", async () => {
    const server = await cli.startServer({
      turns: [{ error: { status: 529 } }, { error: { status: 429, headers: { "retry-after-ms": "20" } } }, { text: "<attempt_completion>\n<result>ok</result>\n</attempt_completion>" }],
    });
    const result = await runCli(["run", "--json", "--yes", ...providerArgs("anthropic", server), "task"], {
      env: cli.sandbox.env,
      cwd: cli.sandbox.workspace,
    });
    expect(result.status).toBe(0);
    expect(result.events.filter((event) => event["say"] === "error_retry")).toHaveLength(2);
  });

  it("prints the task id first in text mode (on stderr: stdout is the answer's) and exits 130 on SIGINT; resume then completes the task", async () => {
    const server = await cli.startServer({
      turns: [{ text: "Thinking about it slowly. ".repeat(40), chunkSize: 5, delayMs: 20 }, { text: "<attempt_completion>\n<result>resumed and done</result>\n</attempt_completion>" }],
    });
    const run = startCli(["run", "--yes", ...providerArgs("anthropic", server), "slow task"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await run.waitForOutput(/Thinking about/);
    const taskId = /^task (\S+)$/m.exec(run.stderr)?.[1];
    expect(withoutSandboxNotice(run.stderr).split("\n")[0]).toBe(`task ${taskId}`);
    run.child.kill("SIGINT");
    const status = await run.exit;
    expect(status).toBe(130);
    expect(withoutSandboxNotice(run.stderr)).toContain(`\ncairn: task interrupted; resume it with: cairn resume ${taskId}\n`);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toMatch(/^aborted · /);
    // stdout is the answer as far as it streamed, and nothing else.
    expect("Thinking about it slowly. ".repeat(40).startsWith(run.stdout.trimEnd())).toBe(true);

    const resumed = await runCli(["resume", "--json", "--yes", ...providerArgs("anthropic", server), taskId!, "please finish"], {
      env: cli.sandbox.env,
      cwd: cli.sandbox.workspace,
    });
    expect(resumed.status).toBe(0);
    expect(resumed.events.some((event) => event["say"] === "completion_result" && event["text"] === "resumed and done")).toBe(true);
    // Whatever part of the answer had streamed when the signal came is kept, marked as interrupted.
    const resumeRequest = JSON.stringify(server.requests.at(-1)?.body);
    expect(resumeRequest).toMatch(/Thinking about[^"]*\[Response interrupted by user\]/);
    expect(resumeRequest).toContain("[TASK RESUMPTION]");
    expect(resumeRequest).toContain("please finish");
  });
});
