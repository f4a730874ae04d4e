import { createHash } from "node:crypto";
import { mkdir, realpath, rm, unlink, writeFile, lstat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, parse } from "node:path";
import { defaultExcludePatterns } from "./default-excludes.js";
import { CheckpointUnavailableError, runGit, type GitResult } from "./git.js";
import { addPaths, indexBehind, readOwnExclusions, stageNewFiles, stageWorkspace, type ShadowRepository } from "./staging.js";
import { commitPaths, commitTreeOnHead, indexBehindMarker, namedPaths } from "./direct-commit.js";
import { checkpointLogFormat, checkpointMessage, parseCheckpointLog, parseNameStatus, readHeadHash } from "./shadow-records.js";
import { seedShadowIndex, unseedShadowIndex } from "./seed-index.js";
import { commitFirstFromUserGit, startUserStatus, type EarlyUserStatus } from "./first-checkpoint.js";
import { settleBorrowedObjects, startLocalizing } from "./borrowed-objects.js";
import { stageKnownPaths } from "./known-paths.js";
import { appendShadowSettings } from "./shadow-settings.js";
import { removeEmptyParents } from "./empty-folders.js";
import { shadowLockName, withShadowLock } from "./shadow-lock.js";
import type { Checkpoint, CheckpointDiff, CheckpointNote, CheckpointTrackerOptions, RestoreResult, SnapshotOptions } from "./checkpoint-types.js";

const pathExists = (path: string): Promise<boolean> => lstat(path).then(Boolean, () => false);

export type { ChangedFile, Checkpoint, CheckpointDiff, CheckpointNote, CheckpointReason, CheckpointTrackerOptions, RestoreResult, SnapshotOptions } from "./checkpoint-types.js";

/**
 * Checkpoints of a workspace in a shadow git repository under the data folder
 * (`<dataDir>/checkpoints/<hash of the workspace path>/.git`). Git is always run with
 * an explicit git dir and work tree, so the user's own repository is never used.
 */
export class CheckpointTracker {
  readonly workspace: string;
  readonly dataDir: string;
  readonly maxFileBytes: number;
  /** Above this index size turn checkpoints commit the index with plumbing instead of `commit -a` (default 1 MB, about 10,000 files). */
  readonly largeIndexBytes: number;
  private readonly homeFolder: string;
  private resolvedWorkspace: string | undefined;
  private shadowDir: string | undefined;
  /** This tracker ran `git init`: until a HEAD file names a commit, there is none (no process to ask). */
  private madeEmpty = false;
  /** The last commit made with plumbing and its tree (a turn that changed nothing makes no commit). */
  private lastCommit: { commit: string; tree: string } | undefined;
  /** A new shadow's first checkpoint: the user's `git status`, started by `init` (first-checkpoint.ts). */
  private earlyStatus: Promise<EarlyUserStatus | undefined> | undefined;
  /** One git operation at a time from this tracker: they share the shadow index. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: CheckpointTrackerOptions) {
    this.workspace = options.workspace;
    this.dataDir = options.dataDir;
    this.maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.largeIndexBytes = options.largeIndexBytes ?? 1024 * 1024;
    this.homeFolder = options.homeFolder ?? homedir();
  }

  get gitDir(): string {
    if (this.shadowDir === undefined) throw new Error("CheckpointTracker.init() must be called first");
    return join(this.shadowDir, ".git");
  }

  /** Creates (or reopens) the shadow repository; with `firstCheckpoint`, the next `commit` is a task's first. Throws CheckpointUnavailableError where checkpoints cannot work. */
  async init(options: { signal?: AbortSignal; firstCheckpoint?: boolean } = {}): Promise<void> {
    let workspace: string;
    try {
      workspace = await realpath(this.workspace);
    } catch {
      throw new CheckpointUnavailableError(`the workspace ${this.workspace} does not exist, so there is nothing to checkpoint`);
    }
    const home = await realpath(this.homeFolder).catch(() => this.homeFolder);
    if (workspace === home) {
      throw new CheckpointUnavailableError(`checkpoints are off in your home folder itself (${workspace}): snapshotting all of it would be slow and huge; run cairn in a project folder to have them`);
    }
    if (workspace === parse(workspace).root) {
      throw new CheckpointUnavailableError(`checkpoints are off at the root of the file system (${workspace}); run cairn in a project folder`);
    }
    const key = createHash("sha256").update(workspace).digest("hex").slice(0, 16);
    this.resolvedWorkspace = workspace;
    this.shadowDir = join(this.dataDir, "checkpoints", key);
    await this.serial(async () => {
      const gitDir = this.gitDir;
      const signal = options.signal === undefined ? {} : { signal: options.signal };
      const configured = join(gitDir, "cairn-configured");
      await mkdir(gitDir, { recursive: true });
      await writeFile(this.defaultExcludesFile, `${defaultExcludePatterns.join("\n")}\n`);
      if (await pathExists(configured)) return;
      if (!(await pathExists(join(gitDir, "HEAD")))) {
        // A task's first checkpoint: the user's status runs beside `git init`, the seeding and the task's start.
        if (options.firstCheckpoint === true) this.earlyStatus = startUserStatus(workspace, this.defaultExcludesFile, options.signal).catch(() => undefined);
        await this.git(["init", "--quiet", "--template="], signal);
        this.madeEmpty = true;
      }
      await mkdir(join(gitDir, "info"), { recursive: true });
      await mkdir(join(gitDir, "cairn-hooks"), { recursive: true });
      await writeFile(join(this.shadowDir!, "workspace"), `${workspace}\n`);
      await appendShadowSettings(gitDir, this.defaultExcludesFile);
      await writeFile(configured, "1\n");
    }, options.signal);
  }

  /**
   * Snapshots the workspace. With `onlyIfChanged`, returns undefined when nothing
   * changed since the last checkpoint; otherwise always makes one (an empty one if need be).
   */
  async commit(note: CheckpointNote, options: SnapshotOptions = {}): Promise<string | undefined> {
    return this.serial(() => this.snapshot(note, options), options.signal);
  }

  /** `commit`, inside the queue. */
  private async snapshot(note: CheckpointNote, options: SnapshotOptions): Promise<string | undefined> {
    const repository = this.repository(options.signal);
    await settleBorrowedObjects(this.gitDir, this.workTree, options.signal);
    const hasHead = await this.hasHead();
    const seed = !hasHead && !(await pathExists(join(this.gitDir, "index"))) ? await seedShadowIndex(repository) : undefined;
    const early = this.earlyStatus;
    this.earlyStatus = undefined;
    if (seed !== undefined) {
      // Built on the user's index's tree and their `git status` where it can be (first-checkpoint.ts), else the index way.
      const git = (args: string[]): Promise<GitResult> => this.git(args, options.signal === undefined ? {} : { signal: options.signal });
      this.lastCommit = await commitFirstFromUserGit(repository, seed, { message: checkpointMessage(note), reflogMessage: `cairn checkpoint: ${note.reason}`, git, early: await early });
      return this.lastCommit?.commit ?? this.commitSeeded(note, repository);
    }
    // A large index (issue 33): `git status` is the one pass over the work tree; what it names is recorded on HEAD
    // without the index (direct-commit.ts), or staged by path and the index committed, never `commit -a`'s second
    // pass. An index left behind HEAD by direct commits takes this way whatever its size.
    const large = (hasHead && (await indexBehind(repository))) || ((await lstat(join(this.gitDir, "index")).catch(() => undefined))?.size ?? 0) > this.largeIndexBytes;
    // Only the files the turn's tools named changed (issue 33): they alone are recorded, with no pass over the
    // work tree. A small index keeps the two processes of `git status` and `commit -a`, cheaper there.
    if (large && hasHead && options.paths !== undefined) {
      const direct = await this.commitNamed(note, repository, options.paths, options.onlyIfChanged === true);
      if (direct !== null) return direct;
      // Staging by path commits the index's tree: only where the index is in step with HEAD.
      if (!(await indexBehind(repository)) && (await stageKnownPaths(repository, options.paths))) return this.commitIndex(note, options.signal, options.onlyIfChanged);
    }
    if ((options.onlyIfChanged === true || large) && hasHead) {
      // Git processes are most of a checkpoint's cost (issue 18): one `git status` when
      // nothing changed, then `commit -a` (plus one `update-index` when files are new).
      const changes = await stageNewFiles(repository, { stageTracked: large, collect: large });
      if (changes.kind === "unchanged" && options.onlyIfChanged === true) return undefined;
      if (changes.kind === "unchanged" && large) return this.commitSame(note, options.signal);
      if (changes.kind === "changed" && changes.paths !== undefined) {
        const direct = await this.commitDirect(note, repository, changes.paths, { skipIgnored: false, noNested: false, onlyIfChanged: options.onlyIfChanged === true });
        if (direct !== null) return direct;
        await addPaths(repository, changes.paths);
        await rm(join(this.gitDir, indexBehindMarker), { force: true });
        return this.commitIndex(note, options.signal, options.onlyIfChanged);
      }
      if (changes.kind !== "unknown") return large ? this.commitIndex(note, options.signal) : this.commitStaged(note, { ...options, allTracked: true });
    }
    await stageWorkspace(repository);
    return this.commitStaged(note, options);
  }

  /**
   * The first checkpoint of a shadow index seeded from the user's (seed-index.ts): `git
   * status` finds what changed since the user's last `git add`. Should the user's index
   * name an object their store lacks, git refuses the tree: the seed is dropped and the
   * workspace staged from nothing. Then the borrowed objects are copied in the background
   * (borrowed-objects.ts).
   */
  private async commitSeeded(note: CheckpointNote, repository: ShadowRepository): Promise<string | undefined> {
    let hash: string | undefined;
    try {
      const changes = await stageNewFiles(repository, { stageTracked: true });
      if (changes.kind === "unknown") await stageWorkspace(repository);
      hash = await this.commitIndex(note, repository.signal);
    } catch (error) {
      if (repository.signal?.aborted === true) throw error;
      await unseedShadowIndex(this.gitDir);
      await stageWorkspace(repository);
      return this.commitStaged(note, repository.signal === undefined ? {} : { signal: repository.signal });
    }
    await startLocalizing(this.gitDir);
    return hash;
  }

  /**
   * Commits the index as it is, with plumbing (`write-tree`, `commit-tree`, `update-ref`): nothing re-reads the
   * work tree. With `onlyIfChanged`, no commit is made (undefined) when the tree is HEAD's.
   */
  private async commitIndex(note: CheckpointNote, abort?: AbortSignal, onlyIfChanged?: boolean): Promise<string | undefined> {
    const signal = abort === undefined ? {} : { signal: abort };
    const tree = (await this.git(["write-tree"], signal)).stdout.trim();
    const parent = (await readHeadHash(this.gitDir)) ?? (await this.git(["rev-parse", "--verify", "--quiet", "HEAD"], { ...signal, allowExitCodes: [1, 128] })).stdout.trim();
    if (onlyIfChanged === true && parent !== "" && tree === (await this.treeOf(parent, signal))) return undefined;
    const parents = parent === "" ? [] : ["-p", parent];
    const commit = (await this.git(["commit-tree", tree, ...parents, "-F", "-"], { ...signal, input: checkpointMessage(note) })).stdout.trim();
    await this.git(["update-ref", "-m", `cairn checkpoint: ${note.reason}`, "HEAD", commit, ...(parent === "" ? [] : [parent])], signal);
    this.lastCommit = { commit, tree };
    return commit;
  }

  /**
   * A turn whose tools named its files (issue 33), recorded without the index as `git add -A` on them would
   * stage them; null where that cannot be done exactly (a `.gitignore` named, nested repositories, ...).
   */
  private async commitNamed(note: CheckpointNote, repository: ShadowRepository, absolutePaths: readonly string[], onlyIfChanged: boolean): Promise<string | undefined | null> {
    const paths = namedPaths(this.workTree, absolutePaths);
    const exclusions = await readOwnExclusions(repository);
    if (paths === undefined || exclusions.stale || exclusions.nested.size > 0) return null;
    if (paths.length === 0) return onlyIfChanged ? undefined : this.commitSame(note, repository.signal);
    return this.commitDirect(note, repository, paths, { skipIgnored: true, noNested: true, onlyIfChanged });
  }

  /** `commitPaths` (direct-commit.ts) on HEAD; null: take the index way. */
  private async commitDirect(
    note: CheckpointNote,
    repository: ShadowRepository,
    paths: readonly string[],
    options: { skipIgnored: boolean; noNested: boolean; onlyIfChanged: boolean },
  ): Promise<string | undefined | null> {
    const parent = await readHeadHash(this.gitDir);
    // Beyond a few hundred files git's index way is as good, and it brings the index back in step with HEAD.
    if (parent === undefined || paths.length > 500) return null;
    const result = await commitPaths(repository, parent, paths, { ...options, message: checkpointMessage(note), reflogMessage: `cairn checkpoint: ${note.reason}` });
    if (result.kind === "fallback") return null;
    if (result.kind === "unchanged") return options.onlyIfChanged ? undefined : this.commitOnHead(note, parent, result.tree, repository.signal);
    this.lastCommit = { commit: result.commit, tree: result.tree };
    return result.commit;
  }

  /** A checkpoint of HEAD's tree again (nothing changed, but the task needs its own): no index read or written. */
  private async commitSame(note: CheckpointNote, signal?: AbortSignal): Promise<string> {
    const parent = (await readHeadHash(this.gitDir)) ?? (await this.git(["rev-parse", "--verify", "HEAD"], signal === undefined ? {} : { signal })).stdout.trim();
    return this.commitOnHead(note, parent, await this.treeOf(parent, signal === undefined ? {} : { signal }), signal);
  }

  /** A commit of `tree` on `parent`, written by cairn, HEAD moved to it (by `git update-ref` should the ref be busy). */
  private async commitOnHead(note: CheckpointNote, parent: string, tree: string, signal?: AbortSignal): Promise<string> {
    const commit = await commitTreeOnHead(this.gitDir, parent, tree, checkpointMessage(note), `cairn checkpoint: ${note.reason}`, (args) => this.git(args, signal === undefined ? {} : { signal }));
    this.lastCommit = { commit, tree };
    return commit;
  }

  /** A commit's tree: remembered for the last one this tracker made, else asked of git. */
  private async treeOf(commit: string, signal: { signal?: AbortSignal }): Promise<string> {
    if (this.lastCommit?.commit === commit) return this.lastCommit.tree;
    return (await this.git(["rev-parse", `${commit}^{tree}`], signal)).stdout.trim();
  }

  /** Checkpoints, newest first; only `taskId`'s when given. */
  async list(options: { taskId?: string } = {}): Promise<Checkpoint[]> {
    return this.serial(async () => {
      if (!(await this.hasHead())) return [];
      return parseCheckpointLog((await this.git(["log", checkpointLogFormat, "HEAD"])).stdout, options.taskId);
    });
  }

  /** Changes from `from` to `to`, or to the workspace as it is now when `to` is omitted. */
  async diff(from: string, to?: string): Promise<CheckpointDiff> {
    return this.serial(async () => {
      const fromHash = await this.resolveCommit(from);
      let range: string[];
      if (to === undefined) {
        await stageWorkspace(this.repository());
        range = ["--cached", fromHash];
      } else {
        range = [fromHash, await this.resolveCommit(to)];
      }
      const names = await this.git(["diff", "--no-renames", "--name-status", "-z", ...range]);
      const patch = await this.git(["diff", "--no-renames", "--no-color", "--no-ext-diff", ...range]);
      return { files: parseNameStatus(names.stdout), patch: patch.stdout };
    });
  }

  /**
   * Puts the workspace files back as they were at `hash`: changed and deleted files are
   * written back, files created since are removed. Ignored files, large files and
   * everything under `.git` are left alone. The state just before is checkpointed first.
   */
  async restoreFiles(hash: string, options: { taskId: string }): Promise<RestoreResult> {
    return this.serial(async () => {
      const target = await this.resolveCommit(hash);
      const undoHash = (await this.snapshot({ taskId: options.taskId, reason: "before-restore" }, {}))!;
      // Between two commits: the index may be behind the checkpoint just made (direct-commit.ts).
      const names = await this.git(["diff", "--no-renames", "--name-status", "-z", target, undoHash]);
      const restored: string[] = [];
      const removed: string[] = [];
      const skippedLarge: string[] = [];
      for (const change of parseNameStatus(names.stdout)) {
        const absolute = join(this.workTree, change.path);
        const size = await lstat(absolute).then(
          (info) => (info.isFile() ? info.size : 0),
          () => 0,
        );
        if (size > this.maxFileBytes) {
          skippedLarge.push(change.path);
          continue;
        }
        // The diff runs from the checkpoint to now: "added" means created since the checkpoint.
        if (change.status === "added") removed.push(change.path);
        else restored.push(change.path);
      }
      if (restored.length > 0) {
        await this.git(["checkout", target, "--pathspec-from-file=-", "--pathspec-file-nul"], {
          input: `${restored.join("\0")}\0`,
        });
      }
      for (const path of removed) {
        await unlink(join(this.workTree, path)).catch(() => {});
        await removeEmptyParents(this.workTree, path);
      }
      await this.stageAfterRestore();
      return { undoHash, restored, removed, skippedLarge };
    });
  }

  /** The index brought up to the restored files: by `git status` and paths where the index is large, else `add -A`. */
  private async stageAfterRestore(): Promise<void> {
    const large = ((await lstat(join(this.gitDir, "index")).catch(() => undefined))?.size ?? 0) > this.largeIndexBytes;
    if (large && (await stageNewFiles(this.repository(), { stageTracked: true })).kind !== "unknown") return;
    await stageWorkspace(this.repository());
  }

  private get workTree(): string {
    if (this.resolvedWorkspace === undefined) throw new Error("CheckpointTracker.init() must be called first");
    return this.resolvedWorkspace;
  }

  private get defaultExcludesFile(): string {
    return join(this.gitDir, "cairn-default-excludes");
  }

  private repository(signal?: AbortSignal): ShadowRepository {
    return {
      gitDir: this.gitDir,
      workTree: this.workTree,
      maxFileBytes: this.maxFileBytes,
      defaultExcludesFile: this.defaultExcludesFile,
      ...(signal === undefined ? {} : { signal }),
    };
  }

  /**
   * Commits the index (with `allTracked`, also tracked files changed since: `commit -a`).
   * With `onlyIfChanged`, a commit that would change nothing is not made: git refuses it
   * ("nothing to commit"), which saves asking first with a process of its own.
   */
  private async commitStaged(note: CheckpointNote, options: { onlyIfChanged?: boolean; allTracked?: boolean; signal?: AbortSignal }): Promise<string | undefined> {
    const signal = options.signal === undefined ? {} : { signal: options.signal };
    const hasHead = await this.hasHead();
    const skipUnchanged = options.onlyIfChanged === true && hasHead;
    const message = checkpointMessage(note);
    // `git commit` starts a second git process (`maintenance run --auto`) after every commit.
    // Turn checkpoints skip it, and so does the first commit of a new repository (nothing to tidy);
    // the first checkpoint of a later task still lets git tidy up.
    const args = skipUnchanged || !hasHead ? ["-c", "maintenance.auto=false", "-c", "gc.auto=0"] : [];
    args.push("commit", "--quiet", "--no-verify", "--file=-");
    if (!skipUnchanged) args.push("--allow-empty");
    if (options.allTracked === true) args.push("--all");
    const result = await this.git(args, { ...signal, input: message, allowExitCodes: skipUnchanged ? [1] : [] });
    if (result.exitCode === 1) {
      if (/nothing (added )?to commit|no changes added to commit/.test(result.stdout + result.stderr)) return undefined;
      throw new Error(`git commit failed (exit 1): ${(result.stderr || result.stdout).trim()}`);
    }
    return (await readHeadHash(this.gitDir)) ?? (await this.git(["rev-parse", "HEAD"], signal)).stdout.trim();
  }

  private async hasHead(): Promise<boolean> {
    if ((await readHeadHash(this.gitDir)) !== undefined) return true;
    if (this.madeEmpty) return false;
    const result = await this.git(["rev-parse", "--verify", "--quiet", "HEAD"], { allowExitCodes: [1, 128] });
    return result.exitCode === 0;
  }

  private async resolveCommit(reference: string): Promise<string> {
    if (!/^[0-9a-f]{4,40}$/i.test(reference) && reference !== "HEAD") {
      throw new Error(`"${reference}" is not a checkpoint hash; see \`cairn checkpoints <task>\` for them`);
    }
    const result = await this.git(["rev-parse", "--verify", "--quiet", `${reference}^{commit}`], { allowExitCodes: [1, 128] });
    if (result.exitCode !== 0) {
      throw new Error(`there is no checkpoint ${reference} for ${this.workspace}; see \`cairn checkpoints <task>\` for them`);
    }
    return result.stdout.trim();
  }

  private async git(args: string[], options: { input?: string; signal?: AbortSignal; allowExitCodes?: number[] } = {}): Promise<GitResult> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await runGit({ gitDir: this.gitDir, workTree: this.workTree, args, ...options });
      } catch (error) {
        // A git the lock does not cover (an older cairn, one the user ran on the shadow) holds its index for a moment.
        const busy = error instanceof Error && error.message.includes("index.lock");
        if (!busy || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
  }

  /** One operation at a time: this tracker's own (the queue), then every process's (shadow-lock.ts). */
  private serial<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const locked = (): Promise<T> => withShadowLock(join(this.gitDir, shadowLockName), work, signal === undefined ? {} : { signal });
    const result = this.queue.then(locked, locked);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** After an aborted git run (a snapshot that took too long), its index lock may be left behind. */
  async clearAbortedLock(): Promise<void> {
    await this.queue;
    await rm(join(this.gitDir, "index.lock"), { force: true });
  }
}
