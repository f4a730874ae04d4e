import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { environmentDetails } from "./environment-details.js";
import { listWorkspace } from "./workspace-listing.js";

let workspace: string | undefined;
afterEach(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
  workspace = undefined;
});

async function tree(files: Record<string, string>): Promise<string> {
  workspace = await mkdtemp(join(tmpdir(), "cairn-listing-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  return workspace;
}

describe("the first turn's file listing", () => {
  it("lists breadth-first, each folder by name, and leaves out ignored files, dependencies and build output", async () => {
    const root = await tree({
      "README.md": "",
      ".gitignore": "*.log\nsecret/\n",
      ".cairnignore": "private.txt\n",
      "b.ts": "",
      "src/z.ts": "",
      "src/a.ts": "",
      "src/deep/x.ts": "",
      "src/.gitignore": "generated.ts\n",
      "src/generated.ts": "",
      "app.log": "",
      "private.txt": "",
      "secret/key.txt": "",
      "node_modules/pkg/index.js": "",
      "dist/out.js": "",
      ".git/HEAD": "",
    });
    await symlink(join(root, "src"), join(root, "link-to-src"));
    const listing = await listWorkspace(root);
    expect(listing).toEqual({
      files: [".cairnignore", ".gitignore", "README.md", "b.ts", "link-to-src", "src/.gitignore", "src/a.ts", "src/z.ts", "src/deep/x.ts"],
      truncated: false,
    });
  });

  it("stops at the limit without reading the rest of the tree, and says so", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 30; index += 1) files[`f${String(index).padStart(2, "0")}.txt`] = "";
    files["sub/deep.txt"] = "";
    const root = await tree(files);
    const listing = await listWorkspace(root, { limit: 10 });
    expect(listing.files).toEqual(Array.from({ length: 10 }, (_, index) => `f${String(index).padStart(2, "0")}.txt`));
    expect(listing.truncated).toBe(true);
    expect(await listWorkspace(root, { limit: 31 })).toMatchObject({ truncated: false });
    const details = await environmentDetails({ workspace: root, mode: "act", includeFileListing: true, contextTokens: 0, contextWindow: 1, now: new Date(0) });
    expect(details).toContain(`# Current working directory (${root}) files\nf00.txt\nf01.txt`);
    expect(details).not.toContain("truncated");
  });

  it("stops reading folders when its time is up, keeping what it listed, and says so", async () => {
    const root = await tree({ "a.ts": "", "b.ts": "", "src/c.ts": "", "src/deeper/d.ts": "" });
    expect(await listWorkspace(root, { timeBudgetMs: 0 })).toEqual({ files: ["a.ts", "b.ts"], truncated: true });
    expect(await listWorkspace(root, { timeBudgetMs: 10_000 })).toEqual({ files: ["a.ts", "b.ts", "src/c.ts", "src/deeper/d.ts"], truncated: false });
  });

  it("keeps the listing within its size in characters, whatever the length of the paths", async () => {
    const long = `${"a".repeat(60)}/${"b".repeat(60)}`;
    const files: Record<string, string> = {};
    for (let index = 0; index < 20; index += 1) files[`${long}/file-${index}.ts`] = "";
    const root = await tree(files);
    const listing = await listWorkspace(root, { maxCharacters: 1_000 });
    expect(listing.truncated).toBe(true);
    expect(listing.files.join("\n").length).toBeLessThanOrEqual(1_000);
    expect(listing.files.length).toBeGreaterThan(5);
  });

  it("says when there are no files", async () => {
    const root = await tree({});
    const details = await environmentDetails({ workspace: root, mode: "plan", includeFileListing: true, contextTokens: 0, contextWindow: 1, now: new Date(0) });
    expect(details).toContain("files\n(No files found.)");
    expect(details).toContain("PLAN MODE");
  });
});
