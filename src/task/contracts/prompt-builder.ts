import type { Mode } from "./tool-executor.js";

/** Builds what the Task sends besides the history (SPEC T2a); src/prompt implements it. */
export interface PromptBuilder {
  systemPrompt(options: { mode: Mode; protocol: "xml" | "native"; mcpSection: string }): Promise<string>;
  /** Appended to each user turn: time, mode, context use; the first turn also lists the workspace. */
  environmentDetails(options: { mode: Mode; includeFileListing: boolean; contextTokens: number; contextWindow: number }): Promise<string>;
}
