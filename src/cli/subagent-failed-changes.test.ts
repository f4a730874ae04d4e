import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";
import { repositoryWith } from "../test-support/git-repository.js";

const cli = useCliFixture();

const useSubagents = (items: Array<{ prompt: string; agent?: string }>): string => `Delegating.\n<use_subagents>\n<subagents>${JSON.stringify(items)}</subagents>\n</use_subagents>`;
const complete = (result: string): string => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;
const write = (path: string, content: string): string => `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`;

describe("a writing subagent that does not complete", () => {
  it("under --yes its changes are neither offered nor merged, and they are kept as a patch file named to the user", { timeout: 90_000 }, async () => {
    const ws = cli.sandbox.workspace;
    await repositoryWith(ws, { "a.txt": "original\n" });
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "ALPHA: change a.txt" }]) }, { text: complete("the child failed") }],
      conversations: [
        // The child writes, then its provider refuses the next request for good: it fails.
        { match: "ALPHA:", turns: [{ text: write("a.txt", "half done") }, { error: { status: 400 } }, { error: { status: 400 } }, { error: { status: 400 } }] },
      ],
    };
    const server = await cli.startServer(scenario);
    const result = await cli.run(["run", "--yes", "--json", ...anthropicArgs(server), "Change a.txt"]);
    expect(result.status).toBe(0);
    const parentId = String(result.events[0]?.["taskId"]);

    expect(await readFile(join(ws, "a.txt"), "utf8")).toBe("original\n");
    expect(result.events.some((event) => (event["meta"] as Record<string, unknown> | undefined)?.["tool"] === "subagent_merge" && String(event["text"]).includes("Merge its changes"))).toBe(false);
    const patch = join(cli.sandbox.dataDir, "subagent-changes", parentId, "general-1.patch");
    expect(result.events.some((event) => event["say"] === "warning" && String(event["text"]).includes(`kept in ${patch}`))).toBe(true);
    expect(await readFile(patch, "utf8")).toContain("+half done");
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain(`kept in ${patch}`);
    expect(existsSync(join(cli.sandbox.dataDir, "worktrees", parentId, "general-1"))).toBe(false);
  });
});
