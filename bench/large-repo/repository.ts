/**
 * The large repository of bench/checkpoints-large.bench.ts: 50,000 files, about 400 MB,
 * in 500 folders, committed in a git repository, plus untracked files and ignored ones
 * (node_modules/, *.log). Made once under os.tmpdir() and kept across runs (a marker
 * file says it is complete); BENCH_LARGE_FILES changes the size (a different folder).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const fileCount = Number(process.env["BENCH_LARGE_FILES"] ?? 50_000);
/** Bytes per file on average: 400 MB over 50,000 files. */
const averageBytes = 8_000;

/** Text that does not compress to nothing (as source code does not), different in every file. */
export function content(index: number): string {
  let seed = index * 2654435761;
  const words: string[] = [`one ${index}\n`];
  let length = 0;
  const target = averageBytes / 2 + ((index * 7919) % averageBytes);
  while (length < target) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const word = seed.toString(36);
    words.push(word, seed % 11 === 0 ? "\n" : " ");
    length += word.length + 1;
  }
  return words.join("");
}

/** The path of file `index`, relative to the workspace. */
export const filePath = (index: number): string => join(`src-${Math.floor(index / 100)}`, `file-${index}.txt`);

export async function largeRepository(): Promise<string> {
  const root = join(tmpdir(), `cairn-bench-large-repo-${fileCount}`);
  const workspace = join(root, "workspace");
  if (existsSync(join(root, "complete"))) return workspace;
  execFileSync("rm", ["-rf", root]);
  for (let index = 0; index < fileCount; index += 1) {
    if (index % 100 === 0) await mkdir(join(workspace, `src-${index / 100}`), { recursive: true });
    await writeFile(join(workspace, filePath(index)), content(index));
  }
  await writeFile(join(workspace, ".gitignore"), "*.log\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...args], { cwd: workspace, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "the large repository");
  // What a working copy has besides: untracked files, ignored ones, installed dependencies.
  for (let index = 0; index < 20; index += 1) await writeFile(join(workspace, `untracked-${index}.txt`), content(fileCount + index));
  await mkdir(join(workspace, "node_modules", "dependency"), { recursive: true });
  for (let index = 0; index < 500; index += 1) await writeFile(join(workspace, "node_modules", "dependency", `module-${index}.js`), content(index));
  await writeFile(join(workspace, "debug.log"), "ignored\n".repeat(1000));
  await writeFile(join(root, "complete"), "1\n");
  return workspace;
}
