import type { TrustState } from "./types.js";

const explanations: Array<[RegExp, string]> = [
  [/^autoApprove\.(.+)$/, "auto-approve $1"],
  [/^hooks$/, "run its hook commands"],
  [/^allowOutsideWrites$/, "write outside the workspace"],
  [/^profiles\.(.+)\.baseUrl$/, 'send requests (with your API key) to the server of profile "$1"'],
  [/^(\.cairn\/mcp\.json|\.mcp\.json)$/, "start the MCP servers in $1"],
  [/^dataDir$/, "keep cairn's task logs and checkpoints in its own folder"],
  [/^allowEnv$/, "pass secret environment variables to commands"],
  [/^allowOutsideReads$/, "read files outside the workspace"],
  [/^sandbox(\.enabled)?$/, "switch the sandbox off"],
  [/^sandbox\.excludedCommands$/, "run some commands outside the sandbox"],
  [/^sandboxNetwork$/, "give sandboxed commands the network"],
  [/^permissions\.allow$/, "allow commands and tools by its own rules"],
  [/^permissions\.defaultMode acceptEdits$/, "accept edits without asking"],
  [/^permissions\.defaultMode (.+)$/, "use the permission mode $1"],
  [/^env$/, "set environment variables for commands"],
  [/^statusLine$/, "run its status line command"],
  [/^keepBackgroundProcesses$/, "leave background processes running after a command"],
  [/^onAsk$/, "answer unanswered asks with no and go on"],
  [/^lsp\.(.+)$/, "run its own language server $1"],
  [/^models\.(.+)\.(\w+Price)$/, "use its own $2 for $1 in your budget"],
  [/^(\.cairn\/hooks|\.clinerules\/hooks|\.claude\/settings(?:\.local)?\.json)$/, "run the hooks in $1"],
];

function explain(key: string, trust: TrustState): string {
  if (key === "baseUrl") return `send requests (with your API key) to ${trust.blockedBaseUrl ?? "its own server"}`;
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
  const wishes = [...new Set(trust.gated.map((key) => explain(key, trust)))].join(", ");
  return `The project in ${trust.folder} asks cairn to ${wishes}. Trust this folder? Only do so if you trust its authors; cairn remembers the answer.`;
}
