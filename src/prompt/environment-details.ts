import type { Mode } from "../task/contracts/tool-executor.js";
import { listWorkspace } from "./workspace-listing.js";

export async function environmentDetails(options: { workspace: string; mode: Mode; includeFileListing: boolean; contextTokens: number; contextWindow: number; now: Date }): Promise<string> {
  const lines = ["<environment_details>", `# Current time\n${options.now.toISOString()}`];
  if (options.contextTokens > 0) {
    const percent = Math.round((options.contextTokens / options.contextWindow) * 100);
    lines.push(`# Context window usage\n${options.contextTokens.toLocaleString("en-US")} / ${options.contextWindow.toLocaleString("en-US")} tokens used (${percent}%)`);
  }
  lines.push(`# Current mode\n${options.mode.toUpperCase()} MODE`);
  if (options.includeFileListing) {
    const listing = await listWorkspace(options.workspace);
    const note = listing.truncated ? "\n(File list truncated. Use list_files on specific folders to explore further.)" : "";
    const body = listing.files.length > 0 ? listing.files.join("\n") : "(No files found.)";
    lines.push(`# Current working directory (${options.workspace}) files\n${body}${note}`);
  }
  lines.push("</environment_details>");
  return lines.join("\n\n");
}
