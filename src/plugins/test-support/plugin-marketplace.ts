/**
 * A team's plugin marketplace as a real git repository, made for a test: the
 * plugin `shop` with a command, an agent, a skill, a hook (a script of the
 * plugin's, through `${CLAUDE_PLUGIN_ROOT}`) and an MCP server (a small
 * stdio server of the plugin's own, speaking MCP's JSON-RPC).
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export const marketplaceName = "team-tools";
export const greetBody = "Greet $ARGUMENTS warmly, from the shop plugin.";
export const auditorInstructions = "Audit the shop's prices carefully (the plugin's auditor).";
export const pricingSkillBody = "Prices are in pounds, rounded to the penny (the plugin's pricing skill).";
export const mcpAnswer = "costs 42 pounds (from the plugin's MCP server)";

/** A minimal MCP server over stdio: initialize, tools/list and tools/call of one tool, `price`. */
const pricesServer = `const readline = require("node:readline");
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return;
  if (request.method === "initialize") send({ id: request.id, result: { protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "prices", version: "1.0.0" } } });
  else if (request.method === "tools/list") send({ id: request.id, result: { tools: [{ name: "price", description: "The price of an item", inputSchema: { type: "object", properties: { item: { type: "string" } } } }] } });
  else if (request.method === "tools/call") send({ id: request.id, result: { content: [{ type: "text", text: String(request.params.arguments.item) + " ${mcpAnswer} at " + process.env.CLAUDE_PLUGIN_ROOT }] } });
  else send({ id: request.id, error: { code: -32601, message: "unknown method " + request.method } });
});
`;

export interface MarketplaceRepository {
  folder: string;
  /** Writes a file of the repository (relative path). */
  put(path: string, content: string | object, executable?: boolean): Promise<void>;
  commit(message: string): string;
  /** The commit checked out. */
  head(): string;
}

function git(folder: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd: folder,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "Team", GIT_AUTHOR_EMAIL: "team@example.com", GIT_COMMITTER_NAME: "Team", GIT_COMMITTER_EMAIL: "team@example.com" },
  }).trim();
}

export async function makeMarketplaceRepository(folder: string): Promise<MarketplaceRepository> {
  const put = async (path: string, content: string | object, executable = false): Promise<void> => {
    const file = join(folder, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
    if (executable) await chmod(file, 0o755);
  };
  const plugin = "plugins/shop";
  await put(".claude-plugin/marketplace.json", {
    name: marketplaceName,
    owner: { name: "The shop team" },
    plugins: [{ name: "shop", source: "./plugins/shop", version: "1.0.0", description: "The shop team's commands, agents and checks" }],
  });
  await put(`${plugin}/.claude-plugin/plugin.json`, { name: "shop", version: "1.0.0", description: "The shop team's commands, agents and checks", author: { name: "The shop team" } });
  await put(`${plugin}/commands/greet.md`, `---\ndescription: Greet someone\nargument-hint: <name>\n---\n${greetBody}\n`);
  await put(`${plugin}/agents/auditor.md`, `---\nname: auditor\ndescription: Audits the shop's prices\ntools: Read, Grep\n---\n${auditorInstructions}\n`);
  await put(`${plugin}/skills/pricing/SKILL.md`, `---\nname: pricing\ndescription: How the shop prices things\n---\n${pricingSkillBody}\n`);
  await put(`${plugin}/hooks/hooks.json`, { hooks: { PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "sh ${CLAUDE_PLUGIN_ROOT}/scripts/log-write.sh" }] }] } });
  await put(`${plugin}/scripts/log-write.sh`, '#!/bin/sh\ncat > /dev/null\necho "plugin hook v1 ran from $CLAUDE_PLUGIN_ROOT" >> "$CLAUDE_PROJECT_DIR/plugin-hook.log"\n', true);
  await put(`${plugin}/.mcp.json`, { mcpServers: { prices: { command: process.execPath, args: ["${CLAUDE_PLUGIN_ROOT}/mcp/prices.js"] } } });
  await put(`${plugin}/mcp/prices.js`, pricesServer);
  git(folder, ["init", "--quiet", "--initial-branch=main"]);
  const commit = (message: string): string => {
    git(folder, ["add", "-A"]);
    git(folder, ["commit", "--quiet", "-m", message]);
    return git(folder, ["rev-parse", "HEAD"]);
  };
  commit("the shop plugin");
  return { folder, put, commit, head: () => git(folder, ["rev-parse", "HEAD"]) };
}
