/**
 * Auto mode as an ACP mode (issue 30): `cairn acp --permission-mode auto`
 * offers "auto" beside act and plan; in it the judge (cairn's scripted server,
 * routed by the judge's prompt) decides what would be asked of the editor, and
 * switching to act asks the editor again. Run `npm run build` first.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { startAcpClient } from "./test-support/acp-client.js";
import { useAcpClients } from "./test-support/acp-clients.js";

const cli = useCliFixture();
const acp = useAcpClients(cli);

const write = (path: string) => ({ toolCalls: [{ name: "write_to_file", arguments: { path, content: "written" } }] });
const done = { toolCalls: [{ name: "attempt_completion", arguments: { result: "finished" } }] };

describe("cairn acp in auto mode", () => {
  it("offers auto as a mode; in it the judge allows an edit without asking the editor; in act the editor is asked and the judge is not", async () => {
    const server = await cli.startServer({
      turns: [write("judged.txt"), done, write("asked.txt"), done],
      routes: [{ bodyIncludes: "cairn's auto-mode judge", turns: [{ text: JSON.stringify({ decision: "allow", reason: "the file the user asked for" }) }] }],
    });
    const client = acp.track(
      startAcpClient({
        args: ["--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key-acp", "--model", "claude-sonnet-5-5", "--tool-protocol", "native", "--permission-mode", "auto"],
        env: cli.sandbox.env,
        cwd: cli.sandbox.workspace,
        permissions: ["allow_once"],
      }),
    );
    await client.initialize();
    const sessionId = await client.newSession(cli.sandbox.workspace);
    const options = await client.agent.request("session/set_config_option", { sessionId, configId: "model", value: "claude-sonnet-5-5" });
    const mode = options.configOptions.find((option) => option.id === "mode");
    expect(mode).toMatchObject({ currentValue: "auto" });
    expect(mode && "options" in mode ? mode.options.map((option) => ("value" in option ? option.value : "")) : []).toEqual(["act", "auto", "plan"]);

    expect((await client.prompt(sessionId, "write judged.txt")).stopReason).toBe("end_turn");
    expect(await readFile(join(cli.sandbox.workspace, "judged.txt"), "utf8")).toBe("written");
    expect(client.permissionRequests).toHaveLength(0);
    expect(server.requests.filter((request) => request.route === 0)).toHaveLength(1);

    await client.agent.request("session/set_mode", { sessionId, modeId: "act" });
    expect(
      client
        .updatesOf("config_option_update")
        .at(-1)
        ?.configOptions.find((option) => option.id === "mode"),
    ).toMatchObject({ currentValue: "act" });
    expect((await client.prompt(sessionId, "now write asked.txt")).stopReason).toBe("end_turn");
    expect(await readFile(join(cli.sandbox.workspace, "asked.txt"), "utf8")).toBe("written");
    expect(client.permissionRequests).toHaveLength(1);
    expect(server.requests.filter((request) => request.route === 0)).toHaveLength(1);
  }, 90_000);

  it("without auto mode configured, auto is no mode of the session", async () => {
    const client = await acp.start({ turns: [] });
    const sessionId = await client.newSession(cli.sandbox.workspace);
    await expect(client.agent.request("session/set_mode", { sessionId, modeId: "auto" })).rejects.toMatchObject({ code: -32602 });
  });
});
