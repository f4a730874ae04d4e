import { describe, expect, it } from "vitest";
import { commandNetwork } from "./network-rules.js";
import { PermissionRules, rulesFromBlock } from "./permission-rules.js";

const rules = (block: { allow?: string[]; deny?: string[] }) => new PermissionRules(rulesFromBlock(block, "test"), "/work/project");
const decide = async (command: string, block: { allow?: string[]; deny?: string[] }, sandboxNetwork = false) => (await commandNetwork({ command, rules: rules(block), sandboxNetwork })).network;

describe("Network rules: which sandboxed commands get the network", () => {
  it("every program of the command line must be allowed; wrappers count as what they run", async () => {
    const allow = { allow: ["Network(npm install:*)", "Network(git fetch)"] };
    expect(await decide("npm install left-pad", allow)).toBe(true);
    expect(await decide("timeout 60 npm install", allow)).toBe(true);
    expect(await decide("git fetch", allow)).toBe(true);
    expect(await decide("git fetch origin", allow)).toBe(false);
    expect(await decide("npm installer", allow)).toBe(false);
    expect(await decide("npm install && curl https://x.example", allow)).toBe(false);
    expect(await decide("npm install $(curl -s https://x.example)", allow)).toBe(false);
    expect(await decide("npm test", allow)).toBe(false);
    expect(await decide('eval "npm install"', allow)).toBe(false);
  });

  it("a deny rule wins over allow rules and over --sandbox-network; without Network rules --sandbox-network decides", async () => {
    expect(await decide("curl https://x.example", { allow: ["Network"], deny: ["Network(curl:*)"] })).toBe(false);
    expect(await decide("sh -c 'curl https://x.example'", { deny: ["Network(curl:*)"] }, true)).toBe(false);
    expect(await decide("npm test", { deny: ["Network(curl:*)"] }, true)).toBe(true);
    expect(await decide("anything at all", {}, true)).toBe(true);
    expect(await decide("anything at all", {})).toBe(false);
  });
});
