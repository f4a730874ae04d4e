/**
 * Journey (issue 34): a company user may not send code to a model vendor directly; their profile
 * points cairn at Amazon Bedrock through the team's AWS profile. They run a task, then, the team's
 * Bedrock quota spent, resume it on the company's Azure OpenAI deployment (bin/cairn: run
 * `npm run build` first).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/test-support/cli-harness.js";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { makeUserMachine } from "./test-support/user-machine.js";
import type { UserMachine } from "./test-support/user-machine.js";

const awsSecret = "wJalrXUtnFEMI/K7MDENG/journeyEXAMPLEKEY";
const azureKey = "azure-journey-secret-key";
let machine: UserMachine;
let server: ScriptedServer;

/** Each Bedrock request: 100k tokens in, 10k out; at the `eu.` profile's regional price ($3.30 and $16.50 per million) $0.495, at the global one $0.45. */
const bedrockUsage = { inputTokens: 100_000, outputTokens: 10_000 };

beforeAll(async () => {
  machine = await makeUserMachine({ project: "billing" });
  server = await startScriptedServer({
    scenario: {
      turns: [
        { toolCalls: [{ id: "toolu_1", name: "write_to_file", arguments: { path: "notes.txt", content: "first\n" } }], usage: bedrockUsage },
        { toolCalls: [{ id: "toolu_2", name: "execute_command", arguments: { command: "env | grep -c '^AWS_' > aws.txt; true", requires_approval: false } }], usage: bedrockUsage },
        { toolCalls: [{ id: "toolu_3", name: "attempt_completion", arguments: { result: "first part done" } }], usage: bedrockUsage },
        { toolCalls: [{ id: "call_4", name: "write_to_file", arguments: { path: "notes.txt", content: "first\nsecond\n" } }] },
        { toolCalls: [{ id: "call_5", name: "attempt_completion", arguments: { result: "second part done" } }] },
      ],
    },
  });
  await machine.put(join(machine.home, ".aws", "credentials"), `[team]\naws_access_key_id = AKIAJOURNEYEXAMPLE\naws_secret_access_key = ${awsSecret}\n`);
  await machine.put(join(machine.home, ".aws", "config"), "[profile team]\nregion = eu-central-1\n");
  await machine.put(join(machine.cairnConfigDir, "config.json"), {
    profile: "work",
    toolProtocol: "native",
    retry: { delaysMs: [10, 20] },
    profiles: {
      work: { provider: "bedrock", model: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0", baseUrl: server.url, bedrock: { awsProfile: "team" } },
      azure: { provider: "azure", model: "gpt-5.4", baseUrl: server.url, azure: { deployment: "company-gpt", apiVersion: "2025-04-01-preview" } },
    },
  });
});

afterAll(async () => {
  await server.close();
  await machine.cleanup();
});

describe("journey: a company user on their cloud account", () => {
  it("runs a task on Bedrock with the team's AWS profile, commands never see AWS credentials, then resumes it on Azure OpenAI with the tool calls carried over", { timeout: 90_000 }, async () => {
    const env = { ...machine.env, AZURE_OPENAI_API_KEY: azureKey };
    const first = await runCli(["run", "--json", "--yes", "start the notes"], { env, cwd: machine.workspace });
    expect(first.status, first.stderr).toBe(0);
    const taskId = String(first.events[0]?.["taskId"]);
    expect(await readFile(join(machine.workspace, "notes.txt"), "utf8")).toBe("first\n");
    // The command ran without the AWS variables cairn was given.
    expect((await readFile(join(machine.workspace, "aws.txt"), "utf8")).trim()).toBe("0");
    expect(server.requests[0]?.path).toBe("/model/eu.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream");
    expect(server.requests[0]?.auth).toBe("aws-sigv4 eu-central-1 bedrock");

    // The eu. profile is a regional endpoint: the run's cost and `cairn usage` are at Bedrock's regional price.
    expect(first.events.at(-1)?.["cost"]).toBeCloseTo(3 * 0.495, 9);
    const usage = await runCli(["usage", "--since", "1d", "--json"], { env, cwd: machine.workspace });
    expect((JSON.parse(usage.stdout) as { total: { cost: number } }).total.cost).toBeCloseTo(3 * 0.495, 9);

    const config = await runCli(["config"], { env, cwd: machine.workspace });
    expect(config.stdout).toMatch(/bedrock\.awsProfile\s+team/);

    const second = await runCli(["resume", "--json", "--yes", "--profile", "azure", taskId, "add a second line"], { env, cwd: machine.workspace });
    expect(second.status, second.stderr).toBe(0);
    expect(second.events.some((event) => event["say"] === "completion_result" && event["text"] === "second part done")).toBe(true);
    expect(await readFile(join(machine.workspace, "notes.txt"), "utf8")).toBe("first\nsecond\n");
    expect(server.requests[3]?.path).toBe("/openai/deployments/company-gpt/chat/completions?api-version=2025-04-01-preview");
    expect(server.requests[3]?.auth).toBe("api-key");
    // Bedrock's tool calls, re-expressed as Chat Completions tool calls.
    expect(JSON.stringify(server.requests[3]?.body)).toMatch(/"tool_calls":\[\{"id":"toolu_1","type":"function","function":\{"name":"write_to_file"/);
    for (const output of [first.stdout, first.stderr, second.stdout, second.stderr, JSON.stringify(server.requests.map((request) => request.body))]) {
      expect(output).not.toContain(awsSecret);
      expect(output).not.toContain(azureKey);
    }
  });
});
