import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export type GitRunner = (...args: string[]) => string;

/** Makes `folder` a git repository whose first commit holds `files` (path to text); returns a runner of git there. */
export async function repositoryWith(folder: string, files: Record<string, string>): Promise<GitRunner> {
  const git: GitRunner = (...args) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: folder, encoding: "utf8" });
  await mkdir(folder, { recursive: true });
  git("init", "-q");
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  git("add", "-A");
  git("commit", "-q", "-m", "start");
  return git;
}
