import { lstat, readFile, writeFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { runGit } from "./git.js";

export interface ShadowRepository {
  gitDir: string;
  workTree: string;
  /** Files larger than this stay out of checkpoints. */
  maxFileBytes: number;
  /** The default exclude patterns (node_modules, dist, ...), as a file. */
  defaultExcludesFile: string;
  signal?: AbortSignal;
}

/** The paths this module writes into info/exclude, between markers so the rest of the file is left alone. */
const beginMarker = "# cairn: nested repositories and large files (rewritten on every checkpoint)";

/** Makes a workspace-relative path an exact, anchored ignore pattern. */
export function literalPattern(path: string, directory: boolean): string {
  const escaped = path.replace(/[\\*?[\]!#]/g, (character) => `\\${character}`).replace(/ $/, "\\ ");
  return `/${escaped}${directory ? "/" : ""}`;
}

function unescapePattern(pattern: string): { path: string; directory: boolean } {
  const directory = pattern.endsWith("/");
  const body = pattern.slice(1, directory ? -1 : undefined);
  return { path: body.replace(/\\(.)/g, "$1"), directory };
}

async function isNestedRepository(path: string): Promise<boolean> {
  try {
    await lstat(join(path, ".git"));
    return true;
  } catch {
    return false;
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const info = await lstat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

function splitNul(text: string): string[] {
  return text.split("\0").filter((entry) => entry !== "");
}

/**
 * Lists the untracked, not ignored files under `root` (a nested repository), as the
 * shadow repository would see them if git did not stop at the nested `.git`. A
 * throwaway index makes every file untracked; the nested `.git` is never opened.
 */
async function nestedRepositoryFiles(repository: ShadowRepository, prefix: string): Promise<string[]> {
  const temporaryIndex = join(repository.gitDir, `cairn-nested-${randomBytes(4).toString("hex")}.index`);
  try {
    const listing = await runGit({
      gitDir: repository.gitDir,
      workTree: join(repository.workTree, prefix),
      args: ["ls-files", "-z", "--others", `--exclude-from=${repository.defaultExcludesFile}`, "--exclude-per-directory=.gitignore"],
      env: { GIT_INDEX_FILE: temporaryIndex },
      ...(repository.signal === undefined ? {} : { signal: repository.signal }),
    });
    const files: string[] = [];
    for (const entry of splitNul(listing.stdout)) {
      const path = `${prefix}${entry}`;
      if (entry.endsWith("/")) {
        if (await isNestedRepository(join(repository.workTree, path))) files.push(...(await nestedRepositoryFiles(repository, path)));
        continue;
      }
      const size = await sizeOf(join(repository.workTree, path));
      if (size === undefined || size <= repository.maxFileBytes) files.push(path);
    }
    return files;
  } finally {
    await rm(temporaryIndex, { force: true });
  }
}

/**
 * Brings the shadow index up to the workspace as it is now: `git add -A` for the
 * workspace (which honours its .gitignore files and the default excludes), with
 * nested repositories and large files kept out by exact patterns in info/exclude, and
 * the files inside nested repositories added one by one, so their `.git` folders
 * are never touched, renamed or recorded.
 */
export async function stageWorkspace(repository: ShadowRepository): Promise<void> {
  const signalOption = repository.signal === undefined ? {} : { signal: repository.signal };
  const excludePath = join(repository.gitDir, "info", "exclude");
  const previous = await readFile(excludePath, "utf8").catch(() => "");
  const markerAt = previous.indexOf(beginMarker);
  const userPart = markerAt === -1 ? previous : previous.slice(0, markerAt);
  const ourLines = markerAt === -1 ? [] : previous.slice(markerAt).split("\n").slice(1).filter((line) => line.startsWith("/"));

  // Keep earlier entries that still apply (a large file stays large, a nested repo stays one).
  const nested = new Set<string>();
  const large = new Set<string>();
  for (const line of ourLines) {
    const { path, directory } = unescapePattern(line);
    const absolute = join(repository.workTree, path);
    if (directory && (await isNestedRepository(absolute))) nested.add(`${path}/`);
    if (!directory && ((await sizeOf(absolute)) ?? 0) > repository.maxFileBytes) large.add(path);
  }

  const untracked = await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    args: ["ls-files", "-z", "--others", "--exclude-standard"],
    ...signalOption,
  });
  for (const entry of splitNul(untracked.stdout)) {
    const absolute = join(repository.workTree, entry);
    if (entry.endsWith("/")) {
      if (await isNestedRepository(absolute)) nested.add(entry);
    } else if (((await sizeOf(absolute)) ?? 0) > repository.maxFileBytes) {
      large.add(entry);
    }
  }

  const patterns = [
    ...[...nested].sort().map((path) => literalPattern(path.slice(0, -1), true)),
    ...[...large].sort().map((path) => literalPattern(path, false)),
  ];
  await mkdir(join(repository.gitDir, "info"), { recursive: true });
  await writeFile(excludePath, `${userPart.trimEnd()}${userPart.trim() === "" ? "" : "\n"}${beginMarker}\n${patterns.join("\n")}\n`);

  await runGit({ gitDir: repository.gitDir, workTree: repository.workTree, args: ["add", "-A", "--", "."], ...signalOption });

  const nestedFiles: string[] = [];
  for (const path of [...nested].sort()) nestedFiles.push(...(await nestedRepositoryFiles(repository, path)));
  if (nestedFiles.length > 0) {
    await runGit({
      gitDir: repository.gitDir,
      workTree: repository.workTree,
      args: ["update-index", "--add", "--remove", "-z", "--stdin"],
      input: `${nestedFiles.join("\0")}\0`,
      ...signalOption,
    });
  }
}
