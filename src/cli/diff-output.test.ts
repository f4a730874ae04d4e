/**
 * Diffs shown for an edit (text output, --json meta, the ask) through the real
 * CLI (bin/cairn → dist/: `npm run build` first): `\ No newline at end of file`
 * appears only when a side of the change really lacks its final newline.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolMetaOf } from "../task/contracts/message-meta.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const noNewlineMarker = "\\ No newline at end of file";
const lines = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

function edit(path: string, search: string, replace: string) {
  return { text: `<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE\n</diff>\n</replace_in_file>` };
}
const done = { text: "<attempt_completion>\n<result>edited</result>\n</attempt_completion>" };

function editDiff(messages: ReadonlyArray<{ say?: string; meta?: unknown }>): string {
  const card = messages.find((message) => message.say === "tool" && toolMetaOf(message as UiMessage, "replace_in_file")?.diff !== undefined);
  return toolMetaOf(card as UiMessage, "replace_in_file")?.diff ?? "";
}

describe("the diff of an edit", () => {
  it("a change in the middle of a file that ends with a newline: no end-of-file marker, in text, --json and the ask", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "middle.txt"), `${lines(12)}\n`);
    const server = await cli.startServer({ turns: [edit("middle.txt", "line 6", "LINE SIX"), done, edit("middle.txt", "LINE SIX", "line six"), done] });
    const text = await cli.run(["run", "--yes", ...anthropicArgs(server), "edit the middle"]);
    expect(text.status, text.stderr).toBe(0);
    const shown = text.stdout + text.stderr;
    expect(shown).toContain("+LINE SIX");
    expect(shown).not.toContain(noNewlineMarker);
    expect(await readFile(join(cli.sandbox.workspace, "middle.txt"), "utf8")).toBe(`${lines(12).replace("line 6", "LINE SIX")}\n`);

    // Without --yes the edit is asked about (denied: stdin is closed), with the same diff.
    const asked = await cli.run(["run", "--json", "--on-ask", "deny", ...anthropicArgs(server), "edit the middle again"]);
    const ask = asked.messages.find((message) => message.ask === "tool");
    expect(ask?.text).toContain("+line six");
    expect(ask?.text).not.toContain(noNewlineMarker);
    expect(editDiff(asked.messages)).toContain("-LINE SIX");
    expect(editDiff(asked.messages)).not.toContain(noNewlineMarker);
  });

  it("a change at the end of a file without a final newline shows the marker; one far from that end does not", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "tail.txt"), lines(12));
    const server = await cli.startServer({ turns: [edit("tail.txt", "line 12", "LINE TWELVE"), edit("tail.txt", "line 3", "LINE THREE"), done] });
    const result = await cli.run(["run", "--json", "--yes", ...anthropicArgs(server), "edit the end"]);
    expect(result.status, result.stderr).toBe(0);
    const diffs = result.messages.filter((message) => message.say === "tool" && !message.partial).map((message) => toolMetaOf(message as UiMessage, "replace_in_file")?.diff ?? "");
    const atEnd = diffs.find((diff) => diff.includes("+LINE TWELVE")) ?? "";
    expect(atEnd).toContain(`-line 12\n${noNewlineMarker}\n+LINE TWELVE\n${noNewlineMarker}`);
    const farFromEnd = diffs.find((diff) => diff.includes("+LINE THREE")) ?? "";
    expect(farFromEnd).not.toBe("");
    expect(farFromEnd).not.toContain(noNewlineMarker);
    expect(await readFile(join(cli.sandbox.workspace, "tail.txt"), "utf8")).toBe(lines(12).replace("line 12", "LINE TWELVE").replace("line 3", "LINE THREE"));
  });
});
