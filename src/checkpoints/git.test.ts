import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGit } from "./git.js";
import { userGit } from "../security/user-git.js";

const folder = await mkdtemp(join(tmpdir(), "cairn-git-input-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

// More than a pipe holds (64 KiB): git exits before reading it, so the write fails with EPIPE.
const largeInput = "0123456789abcdef\n".repeat(64 * 1024);

describe("git processes given input they never read", () => {
  it("a shadow git that exits at once fails with its own error, and cairn goes on (no EPIPE crash)", async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(runGit({ gitDir: join(folder, "missing.git"), workTree: folder, args: ["cat-file", "--batch-check"], input: largeInput })).rejects.toThrow(/git cat-file --batch-check failed/);
    }
  });

  it("the user's git that exits at once answers with its exit status", async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await userGit(folder, ["--no-such-option"], largeInput);
      expect(answer.exitCode).not.toBe(0);
    }
  });
});
