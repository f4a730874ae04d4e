import { spawn } from "node:child_process";
import { lstat, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runGit, shadowGitEnvironment } from "./git.js";

/**
 * A shadow repository seeded from the user's index (seed-index.ts) borrows the user's
 * objects through `objects/info/alternates`. The user's `git gc` may delete objects no
 * ref or index of theirs reaches any more, so the shadow keeps that link only for a
 * while: right after the seeded checkpoint a detached, low-priority `git pack-objects`
 * copies everything that checkpoint reaches into a pack of the shadow's own (reusing
 * the user's compressed data where it is packed) and leaves a marker naming the commit.
 * The next checkpoint or restore (`settleBorrowedObjects`, run in the tracker's queue,
 * so no staging is half done) packs what later checkpoints borrowed, from the marked
 * commit to HEAD (a few files), and removes the alternate: from then on the shadow
 * stands alone and writes every new object itself.
 */
const alternatesOf = (gitDir: string): string => join(gitDir, "objects", "info", "alternates");
const markerOf = (gitDir: string): string => join(gitDir, "cairn-localized");
const runningOf = (gitDir: string): string => join(gitDir, "cairn-localizing");

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** Whether the shadow repository still reads objects from the user's store. */
export function borrowsObjects(gitDir: string): Promise<boolean> {
  return exists(alternatesOf(gitDir));
}

/** Each step exits on failure; the marker is written last (the pack is complete by then). */
const localizeScript = `
dir=$1
head=$(git --git-dir="$dir" rev-parse --verify -q HEAD) || exit 1
run() { if command -v nice >/dev/null 2>&1; then nice -n 19 "$@"; else "$@"; fi; }
printf '%s\\n' "$head" | run git --git-dir="$dir" -c pack.compression=1 pack-objects --revs -q --window=0 "$dir/objects/pack/pack" >/dev/null || exit 1
printf '%s\\n' "$head" > "$dir/cairn-localized.tmp" && mv "$dir/cairn-localized.tmp" "$dir/cairn-localized"
rm -f "$dir/cairn-localizing"
`;

/** Whether a background copy started by `startLocalizing` still runs for this shadow repository. */
export async function localizerRunning(gitDir: string): Promise<boolean> {
  const pid = Number((await readFile(runningOf(gitDir), "utf8").catch(() => "")).trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the copy of the borrowed objects in a detached process that outlives cairn if need be (nothing waits for it). */
export async function startLocalizing(gitDir: string): Promise<void> {
  if ((await exists(markerOf(gitDir))) || (await localizerRunning(gitDir))) return;
  const child = spawn("sh", ["-c", localizeScript, "cairn-localize", gitDir], { detached: true, stdio: "ignore", env: shadowGitEnvironment() });
  child.on("error", () => undefined);
  if (child.pid !== undefined) await writeFile(runningOf(gitDir), `${child.pid}\n`).catch(() => undefined);
  child.unref();
}

/**
 * When the background copy is done: copies what checkpoints since then borrowed and
 * drops the alternate. Otherwise makes sure a copy is under way. Must run where no
 * staging of this shadow repository is in progress (the tracker's queue).
 */
export async function settleBorrowedObjects(gitDir: string, workTree: string, signal?: AbortSignal): Promise<void> {
  if (!(await borrowsObjects(gitDir))) return;
  const packed = (await readFile(markerOf(gitDir), "utf8").catch(() => "")).trim();
  if (!/^[0-9a-f]{40}$/.test(packed)) {
    await startLocalizing(gitDir);
    return;
  }
  const signalOption = signal === undefined ? {} : { signal };
  const head = (await runGit({ gitDir, workTree, args: ["rev-parse", "--verify", "-q", "HEAD"], allowExitCodes: [1], ...signalOption })).stdout.trim();
  if (head !== "" && head !== packed) {
    await runGit({ gitDir, workTree, args: ["pack-objects", "--revs", "-q", "--window=0", join(gitDir, "objects", "pack", "pack")], input: `${head}\n^${packed}\n`, ...signalOption });
  }
  await rm(alternatesOf(gitDir), { force: true });
  await rm(markerOf(gitDir), { force: true });
}

/** For tests and the benchmark: waits (up to `timeoutMs`) until the background copy has finished. */
export async function waitForLocalCopy(gitDir: string, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await borrowsObjects(gitDir)) || (await exists(markerOf(gitDir)))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
