import type { TrustState } from "./types.js";

const explanations: Array<[RegExp, string]> = [
  [/^autoApprove\.(.+)$/, "auto-approve $1"],
  [/^hooks$/, "run its hook commands"],
  [/^allowOutsideWrites$/, "write outside the workspace"],
  [/^baseUrl$/, "send requests (with your API key) to its own server"],
  [/^profiles\.(.+)\.baseUrl$/, 'send requests (with your API key) to the server of profile "$1"'],
  [/^\.cairn\/mcp\.json$/, "start the MCP servers in .cairn/mcp.json"],
  [/^dataDir$/, "keep cairn's task logs and checkpoints in its own folder"],
  [/^allowEnv$/, "pass secret environment variables to commands"],
  [/^allowOutsideReads$/, "read files outside the workspace"],
  [/^sandbox$/, "switch the sandbox off"],
  [/^sandboxNetwork$/, "give sandboxed commands the network"],
  [/^permissions\.allow$/, "allow commands and tools by its own rules"],
  [/^(\.cairn\/hooks|\.clinerules\/hooks|\.claude\/settings(?:\.local)?\.json)$/, "run the hooks in $1"],
];

function explain(key: string): string {
  for (const [pattern, text] of explanations) {
    if (pattern.test(key)) return key.replace(pattern, text);
  }
  return key;
}

/**
 * The question the terminal UI asks before trusting a folder, or undefined when
 * there is nothing to ask (trusted already, or the project asks for nothing
 * that needs trust). After a yes: `trustFolder(trust.folder, settings.userConfigDir)`
 * and resolve the settings again.
 */
export function trustQuestion(trust: TrustState): string | undefined {
  if (trust.trusted || trust.gated.length === 0) return undefined;
  const wishes = trust.gated.map(explain).join(", ");
  return `The project in ${trust.folder} asks cairn to ${wishes}. Trust this folder? Only do so if you trust its authors; cairn remembers the answer.`;
}
