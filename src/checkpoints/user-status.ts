import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { environmentWithoutGit } from "../security/user-git.js";

/** What the user's own `git status` says differs from the user's index, as the shadow repository would see it. */
export interface UserChanges {
  /** Tracked paths whose work-tree state differs from the index (modified, deleted, type or mode changed, intent-to-add). */
  tracked: string[];
  /** Untracked files, one by one, under the shadow's ignore rules. */
  untracked: string[];
}

/**
 * Settings of the user's git that would make its `status` judge the work tree otherwise
 * than the shadow repository does, set back to the shadow's for this one read-only run:
 * cairn's default excludes as the global excludes file, no fsmonitor or untracked cache
 * (the user's were made with other excludes), execute bits and symlinks as they are on
 * disk, every stat field compared, no attributes file beyond the workspace's own. Global
 * and system config are left out, as they are for the shadow repository.
 */
const shadowJudgement = (excludesFile: string): string[] => [
  `core.excludesFile=${excludesFile}`,
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.fileMode=true",
  "core.symlinks=true",
  "core.ignoreCase=false",
  "core.precomposeUnicode=false",
  "core.ignoreStat=false",
  "core.checkStat=default",
  "core.trustctime=true",
  "core.autocrlf=false",
  "core.attributesFile=/dev/null",
  "core.hooksPath=/dev/null",
];

/** Whether the user's `info/exclude` holds any pattern (the shadow does not read it; `git status` cannot be told to skip it). */
export async function userExcludesPatterns(commonDir: string): Promise<boolean> {
  const text = await readFile(join(commonDir, "info", "exclude"), "utf8").catch(() => "");
  return text.split("\n").some((line) => line.trim() !== "" && !line.startsWith("#"));
}

/**
 * Runs `git status` in the user's repository without taking or writing its index
 * (`--no-optional-locks`): the index's stat data spares hashing the unchanged files.
 * Undefined where the answer cannot be used as it is: a conflict, a submodule, a nested
 * repository (listed as a folder), git failing.
 */
export function readUserChanges(workTree: string, excludesFile: string, signal?: AbortSignal): Promise<UserChanges | undefined> {
  const config = shadowJudgement(excludesFile).flatMap((setting) => ["-c", setting]);
  const args = [...config, "--no-optional-locks", "status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignored=no", "--no-renames", "--ignore-submodules=none"];
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      {
        cwd: workTree,
        env: environmentWithoutGit({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" }),
        encoding: "buffer",
        maxBuffer: 512 * 1024 * 1024,
        ...(signal === undefined ? {} : { signal }),
      },
      (error, stdout) => resolve(error === null ? parseStatus(stdout) : undefined),
    );
  });
}

/** Porcelain v2 with -z: `1 XY sub mH mI mW hH hI path`, `? path`; anything else (`u`, `2`, a submodule) is unusual. */
export function parseStatus(output: Buffer): UserChanges | undefined {
  const tracked: string[] = [];
  const untracked: string[] = [];
  for (const record of output.toString("utf8").split("\0")) {
    if (record === "") continue;
    if (record.startsWith("? ")) {
      const path = record.slice(2);
      // A folder: a nested repository, which the shadow snapshots file by file.
      if (path.endsWith("/")) return undefined;
      untracked.push(path);
      continue;
    }
    if (!record.startsWith("1 ")) return undefined;
    const fields = record.split(" ");
    const [, xy, submodule] = fields;
    if (xy === undefined || submodule !== "N..." || fields.length < 9) return undefined;
    // The path may hold spaces: it is the rest after the eight fields.
    const path = fields.slice(8).join(" ");
    // The index's tree holds what the first letter says; only the work tree's side (second letter) differs from it.
    if (xy[1] !== ".") tracked.push(path);
  }
  return { tracked, untracked };
}
