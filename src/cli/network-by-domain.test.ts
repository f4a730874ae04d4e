/**
 * #30 network by domain, through the real CLI against the scripted server:
 * sandboxed `curl` reaches the network only through cairn's proxy, which lets
 * through the hosts a Network(domain:…) rule allows and refuses the rest,
 * naming them to the model and the user, who can allow them.
 */
import { createServer, type Server } from "node:http";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { checkBubblewrap } from "../security/sandbox.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const bubblewrap = checkBubblewrap();
if (!bubblewrap.ok) console.warn(`SKIPPED the network-by-domain tests: bubblewrap is not usable: ${bubblewrap.message}`);

const cli = useCliFixture();

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

/** An HTTP server on one loopback address (127.0.0.2, 127.0.0.3: each its own host name for the rules). */
async function serve(address: string, greeting: string): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? "");
    response.end(`${greeting}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  cli.stopAfterTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://${address}:${(server.address() as { port: number }).port}`, hits };
}

async function configure(allow: string[]): Promise<string> {
  const file = join(cli.sandbox.configDir, "cairn", "config.json");
  await writeFile(file, JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandboxOptIn: false, permissions: { allow } }));
  return file;
}

const runArgs = (extra: string[]): string[] => ["run", "--provider", "anthropic", "--api-key", "sk-test-0123456789", "--base-url", cli.server!.url, "--sandbox", "workspace-write", ...extra, "fetch the data"];

describe.skipIf(!bubblewrap.ok)("network by domain: sandboxed commands reach only the hosts the rules allow, through cairn's proxy", () => {
  it("an allowed host answers (plain HTTP and a CONNECT tunnel); another host is refused with the proxy's reason, named to the model and on stderr", async () => {
    const allowed = await serve("127.0.0.2", "hello from the allowed host");
    const refused = await serve("127.0.0.3", "nobody should read this");
    await configure(["Network(domain:127.0.0.2)"]);
    const scenario: Scenario = {
      turns: [
        { text: command(`curl -sS --max-time 10 ${allowed.url}/plain`) },
        { text: command(`curl -sS --max-time 10 --proxytunnel ${allowed.url}/tunnel`) },
        { text: command(`curl -sS --max-time 10 ${refused.url}/plain`) },
        { text: command(`curl -sS --max-time 10 --proxytunnel ${refused.url}/tunnel`) },
        { text: complete },
      ],
    };
    await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes"]));
    expect(result.status, result.stderr).toBe(0);
    const seen = (index: number): string => JSON.stringify(cli.server!.requests[index]?.body);
    expect(seen(1)).toContain("hello from the allowed host");
    expect(seen(2)).toContain("hello from the allowed host");
    expect(seen(3)).toContain("cairn's network proxy refused 127.0.0.3: no Network(domain:…) rule allows 127.0.0.3");
    expect(seen(3)).toContain("Network(domain:127.0.0.3)");
    expect(seen(4)).toMatch(/CONNECT tunnel failed, response 403/);
    expect(seen(4)).toContain("cairn's network proxy refused 127.0.0.3");
    expect(seen(4)).not.toContain("nobody should read this");
    expect(allowed.hits).toEqual(["/plain", "/tunnel"]);
    expect(refused.hits).toEqual([]);
    // The user sees the refused host and the rule that would allow it (--yes does not allow it).
    expect(result.stderr).toContain("cairn's network proxy refused 127.0.0.3");
    expect(result.stderr).toContain("Network(domain:127.0.0.3)");
  });

  it('answering "always" to the refused host saves Network(domain:…) and runs the command again, which then gets through', async () => {
    const other = await serve("127.0.0.3", "hello from the newly allowed host");
    const file = await configure(["Network(domain:registry.example.test)"]);
    await cli.startServer({ turns: [{ text: command(`curl -sS --max-time 10 ${other.url}/data`) }, { text: complete }] });
    const result = await cli.run(runArgs([]), { stdin: "always\ny\n" });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(await readFile(file, "utf8")).permissions.allow).toContain("Network(domain:127.0.0.3)");
    expect(other.hits).toEqual(["/data"]);
    expect(JSON.stringify(cli.server!.requests[1]?.body)).toContain("hello from the newly allowed host");
  });

  it("through the bridge the command is still itself: its own `wait` returns and its exit status is what the user sees", async () => {
    await configure(["Network(domain:127.0.0.2)"]);
    await cli.startServer({ turns: [{ text: command("sleep 0.2 & wait; echo WAITED; exit 3") }, { text: complete }] });
    const result = await cli.run(runArgs(["--yes"]));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/exited with code 3/);
    expect(JSON.stringify(cli.server!.requests[1]?.body)).toContain("WAITED");
  });

  it("without domain rules the sandbox keeps no network at all (the existing behaviour)", async () => {
    const host = await serve("127.0.0.2", "unreachable");
    await configure([]);
    await cli.startServer({ turns: [{ text: command(`curl -sS --max-time 5 ${host.url}/ || echo NO NETWORK`) }, { text: complete }] });
    const result = await cli.run(runArgs(["--yes"]));
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.stringify(cli.server!.requests[1]?.body)).toContain("NO NETWORK");
    expect(host.hits).toEqual([]);
  });
});
