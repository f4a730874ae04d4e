import { expect, it } from "vitest";
import type { McpStatus } from "./contracts/seams.js";
import { McpWait } from "./mcp-wait.js";

it("says which MCP servers are not ready, and why, once for each change rather than before every request", async () => {
  const answers: McpStatus[] = [
    { ready: [], pending: ["remote"], errors: { remote: "fetch failed" } },
    { ready: [], pending: ["remote"], errors: { remote: "fetch failed" } },
    { ready: [], pending: ["remote", "tracker"], errors: { remote: "fetch failed", tracker: "needs sign-in" } },
    { ready: ["remote", "tracker"], pending: [] },
    { ready: ["tracker"], pending: ["remote"], errors: { remote: "fetch failed" } },
  ];
  const said: string[] = [];
  const wait = new McpWait({ waitForServers: async () => answers.shift()!, promptSection: () => "" }, (text) => said.push(text));
  for (let request = 0; request < 5; request += 1) await wait.beforeRequest(10_000, new AbortController().signal);
  expect(said).toEqual([
    "MCP servers not ready yet, going on without them: remote (fetch failed)",
    "MCP servers not ready yet, going on without them: remote (fetch failed); tracker (needs sign-in)",
    // Back after it had connected: said again.
    "MCP servers not ready yet, going on without them: remote (fetch failed)",
  ]);
});
