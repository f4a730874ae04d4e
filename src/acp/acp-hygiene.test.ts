/**
 * `cairn acp` keeps to the protocol when things go wrong: stop reasons, a
 * missing key, malformed input (stdout carries only protocol messages).
 */
import { describe, expect, it } from "vitest";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { startAcpClient } from "./test-support/acp-client.js";
import { useAcpClients } from "./test-support/acp-clients.js";

const cli = useCliFixture();
const acp = useAcpClients(cli);
const start = acp.start;

describe("cairn acp keeps to the protocol when things go wrong", () => {
  it("stop reasons: a refusal ends the turn with refusal; a request failing after an output-limit cut ends it with max_tokens", async () => {
    const refusing = await start({ turns: [{ text: "I can't help with that.", stopReason: "refusal" }] });
    const first = await refusing.newSession(cli.sandbox.workspace);
    expect((await refusing.prompt(first, "do something bad")).stopReason).toBe("refusal");
    expect(refusing.text("agent_message_chunk")).toContain("I can't help with that.");
    expect(cli.server?.requests).toHaveLength(1);

    const cut = await start({ turns: [{ text: "The start of a very long answer", stopReason: "max_tokens" }, { error: { status: 400 } }] });
    const second = await cut.newSession(cli.sandbox.workspace);
    expect((await cut.prompt(second, "write a lot")).stopReason).toBe("max_tokens");
  }, 60_000);

  it("a missing API key is a clear error when the session opens", async () => {
    const client = startAcpClient({ args: ["--provider", "anthropic", "--model", "claude-sonnet-5-5"], env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    acp.track(client);
    await client.initialize();
    await expect(client.newSession(cli.sandbox.workspace)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("no API key for anthropic") });
  }, 60_000);

  it("malformed input gets JSON-RPC errors, never a crash; stdout carries only protocol messages", async () => {
    const { spawn } = await import("node:child_process");
    const { cairnBin } = await import("../cli/test-support/cli-harness.js");
    const child = spawn(process.execPath, [cairnBin, "acp", "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "k", "--model", "gpt-4.1"], {
      cwd: cli.sandbox.workspace,
      env: cli.sandbox.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (data: string) => (stdout += data));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const responses = (): Array<Record<string, unknown>> =>
      stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const waitFor = async (id: number | null, count = 1): Promise<Record<string, unknown>> => {
      for (let waited = 0; waited < 20_000; waited += 25) {
        const found = responses().filter((response) => response["id"] === id);
        if (found.length >= count) return found[count - 1] as Record<string, unknown>;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no response with id ${String(id)}; stdout:\n${stdout}`);
    };
    const send = (line: string): void => {
      child.stdin.write(`${line}\n`);
    };

    send('{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}');
    expect(await waitFor(1)).toMatchObject({ error: { code: -32600 } }); // before initialize
    send("this is not json {");
    expect(await waitFor(null)).toMatchObject({ error: { code: -32700 } });
    send('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}');
    expect(await waitFor(2)).toMatchObject({ result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } });
    send('{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":7}}');
    expect(await waitFor(3)).toMatchObject({ result: { protocolVersion: 1 } }); // the latest cairn speaks
    send('{"jsonrpc":"2.0","id":4,"method":"no/such_method","params":{}}');
    expect(await waitFor(4)).toMatchObject({ error: { code: -32601 } });
    send('{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"missing","prompt":[{"type":"text","text":"hi"}]}}');
    expect(await waitFor(5)).toMatchObject({ error: { code: -32002 } });
    send('{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"missing"}}');
    expect(await waitFor(6)).toMatchObject({ error: { code: -32602 } });
    send('{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"relative/path","mcpServers":[]}}');
    expect(await waitFor(7)).toMatchObject({ error: { code: -32602 } });
    send('{"jsonrpc":"2.0","id":8,"method":"session/load","params":{"sessionId":"../escape","cwd":"/tmp","mcpServers":[]}}');
    expect(await waitFor(8)).toMatchObject({ error: { code: -32002 } });
    send("[1, 2]");
    expect(await waitFor(null, 2)).toMatchObject({ error: { code: -32600 } });
    send(`{"jsonrpc":"2.0","id":9,"method":"session/new","params":{"cwd":${JSON.stringify(cli.sandbox.workspace)},"mcpServers":[]}}`);
    const created = await waitFor(9);
    const sessionId = (created["result"] as { sessionId: string }).sessionId;
    send(`{"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":[]}}`);
    expect(await waitFor(10)).toMatchObject({ error: { code: -32602 } });
    send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"${sessionId}"}}`);
    send(`{"jsonrpc":"2.0","id":11,"method":"session/set_mode","params":{"sessionId":"${sessionId}","modeId":"plan"}}`);
    expect(await waitFor(11)).toMatchObject({ result: {} });

    // Everything on stdout was a JSON-RPC message.
    expect(responses().every((message) => message["jsonrpc"] === "2.0")).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});
