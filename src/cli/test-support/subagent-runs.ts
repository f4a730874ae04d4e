/**
 * What the subagent tests through the real CLI share: the turns that start
 * subagents and end tasks, and reading which conversation each request of the
 * scripted server belonged to.
 */
import { execFileSync } from "node:child_process";
import { firstUserText } from "../../llm/scripted/conversation-router.js";
import type { CliFixture } from "./cli-fixture.js";

export const useSubagents = (items: Array<{ prompt: string; agent?: string }>): string => `Delegating.\n<use_subagents>\n<subagents>${JSON.stringify(items)}</subagents>\n</use_subagents>`;
export const complete = (result: string): string => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;
export const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
export const readFileCall = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;

export function subagentRunHelpers(cli: CliFixture): {
  runArgs: (extra: string[], task: string) => string[];
  conversationOrder: (markers: string[]) => string[];
  requestText: (index: number) => string;
} {
  return {
    runArgs: (extra, task) => ["run", "--provider", "anthropic", "--base-url", cli.server!.url, "--api-key", "sk-test-subagents", ...extra, task],
    /** Which conversation each request belonged to, in arrival order. */
    conversationOrder: (markers) =>
      cli.server!.requests.map((request) => {
        const text = firstUserText((request.body as Record<string, unknown>)["messages"]);
        return markers.find((marker) => text.includes(marker)) ?? "parent";
      }),
    requestText: (index) => JSON.stringify(cli.server!.requests[index]?.body),
  };
}

export function pgrep(pattern: string): string {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
