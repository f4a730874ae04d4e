/**
 * Checkpoints (issue 18): git processes and CPU time per turn checkpoint, for
 * cairn's CheckpointTracker against, in the same run, the way it worked before
 * (git ls-files, git add -A, git diff --cached --quiet HEAD, git commit per turn,
 * and a commit at completion whatever changed) replayed with plain git on a
 * shadow repository of its own. CPU time is this process's plus its git
 * children's (`/proc/self/stat` cutime + cstime), so it counts what spawning costs;
 * git launches are counted by a `git` on PATH that logs each call, in a separate
 * pass (the logging shell would otherwise be timed too). Not counted: the
 * `git maintenance run --auto` that every `git commit` starts by itself, which
 * cairn's turn checkpoints now skip (the task's first checkpoint keeps it).
 * Run with `npm run bench -- checkpoints`. Exits with 1 when a goal is missed.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { CheckpointTracker } from "../src/checkpoints/tracker.js";
import { shadowGitEnvironment } from "../src/checkpoints/git.js";

const run = promisify(execFile);
const turns = Number(process.env["BENCH_TURNS"] ?? 20);
const rounds = Number(process.env["BENCH_REPETITIONS"] ?? 5);

/** A small project: 300 source files in 15 folders, a .gitignore, an ignored build folder. */
async function makeWorkspace(root: string): Promise<string> {
  const workspace = join(root, "workspace");
  for (let folder = 0; folder < 15; folder += 1) {
    await mkdir(join(workspace, "src", `module-${folder}`), { recursive: true });
    for (let file = 0; file < 20; file += 1) {
      await writeFile(join(workspace, "src", `module-${folder}`, `file-${file}.ts`), `export const value${file} = ${folder * 100 + file};\n`.repeat(40));
    }
  }
  await mkdir(join(workspace, "dist"), { recursive: true });
  await writeFile(join(workspace, "dist", "bundle.js"), "built\n");
  await writeFile(join(workspace, ".gitignore"), "dist/\n*.log\n");
  return workspace;
}

/** What a writing turn does: edit one file; every third turn also creates one. */
async function writingTurn(workspace: string, turn: number): Promise<void> {
  await writeFile(join(workspace, "src", "module-3", "file-7.ts"), `export const edited = ${turn};\n`);
  if (turn % 3 === 0) await writeFile(join(workspace, "src", `created-${turn}.ts`), `export const created = ${turn};\n`);
}

/** The checkpoints of one task as cairn makes them now: turn checkpoints, then a completion with nothing changed. */
async function cairnTask(workspace: string, dataDir: string): Promise<void> {
  const tracker = new CheckpointTracker({ workspace, dataDir });
  await tracker.init();
  await tracker.commit({ taskId: "bench", reason: "initial" });
  for (let turn = 1; turn <= turns; turn += 1) {
    await writingTurn(workspace, turn);
    await tracker.commit({ taskId: "bench", reason: "turn" }, { onlyIfChanged: true });
  }
  await tracker.commit({ taskId: "bench", reason: "completion" }, { onlyIfChanged: true });
}

/** The same task as the tracker did it before issue 18, with plain git on a shadow repository. */
async function beforeTask(workspace: string, gitDir: string): Promise<void> {
  const env = shadowGitEnvironment();
  const git = (args: string[], input?: string, allowExit1 = false) =>
    new Promise<void>((resolve, reject) => {
      const child = execFile("git", [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, "--literal-pathspecs", ...args], { cwd: workspace, env }, (error) => {
        if (error === null || (allowExit1 && error.code === 1)) resolve();
        else reject(new Error(`git ${args[0] ?? ""} failed`, { cause: error }));
      });
      if (input !== undefined) child.stdin?.end(input);
    });
  await mkdir(gitDir, { recursive: true });
  await git(["init", "--quiet", "--template="]);
  const stage = async () => {
    await git(["ls-files", "-z", "--others", "--exclude-standard"]);
    await git(["add", "-A", "--", "."]);
  };
  const commit = (reason: string) => git(["commit", "--quiet", "--allow-empty", "--no-verify", "--file=-"], `cairn checkpoint: ${reason}\n`);
  await stage();
  await commit("initial");
  for (let turn = 1; turn <= turns; turn += 1) {
    await writingTurn(workspace, turn);
    await stage();
    await git(["diff", "--cached", "--quiet", "HEAD"], undefined, true);
    await commit("turn");
  }
  await stage();
  await commit("completion");
}

/** This process's CPU time plus that of its finished children, in ms. */
async function cpuWithChildren(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of stat (cutime, cstime) are at 13 and 14 after the command name; in clock ticks (100 a second).
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  const self = process.cpuUsage();
  return (self.user + self.system) / 1000 + children;
}

async function measure(root: string, name: string, task: (workspace: string, shadow: string) => Promise<void>, counter?: string): Promise<{ cpu: number; launches: number }> {
  const folder = join(root, name);
  const workspace = await makeWorkspace(folder);
  if (counter !== undefined) await writeFile(counter, "");
  const start = await cpuWithChildren();
  await task(workspace, join(folder, "shadow"));
  const cpu = (await cpuWithChildren()) - start;
  const launches = counter === undefined ? 0 : (await readFile(counter, "utf8")).split("\n").filter((line) => line !== "").length;
  return { cpu, launches };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const root = await mkdtemp(join(tmpdir(), "cairn-bench-checkpoints-"));
let failures = 0;
try {
  // Pass 1: count git launches through a logging `git` first on PATH.
  const shim = join(root, "bin");
  await mkdir(shim);
  const counter = join(root, "launches.log");
  const realGit = (await run("sh", ["-c", "command -v git"])).stdout.trim();
  await writeFile(join(shim, "git"), `#!/bin/sh\necho "$1 $2 $3 $4" >> "${counter}"\nexec "${realGit}" "$@"\n`);
  await chmod(join(shim, "git"), 0o755);
  const path = process.env["PATH"];
  process.env["PATH"] = `${shim}:${path ?? ""}`;
  const cairnLaunches = (await measure(root, "count-cairn", (workspace, shadow) => cairnTask(workspace, shadow), counter)).launches;
  const beforeLaunches = (await measure(root, "count-before", (workspace, shadow) => beforeTask(workspace, join(shadow, ".git")), counter)).launches;
  process.env["PATH"] = path;

  // Pass 2: CPU time, the two ways interleaved, each on a fresh workspace.
  const cairnCpu: number[] = [];
  const beforeCpu: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ["cairn", "before"] : ["before", "cairn"];
    for (const which of order) {
      const name = `${which}-${round}`;
      if (which === "cairn") cairnCpu.push((await measure(root, name, (workspace, shadow) => cairnTask(workspace, shadow))).cpu);
      else beforeCpu.push((await measure(root, name, (workspace, shadow) => beforeTask(workspace, join(shadow, ".git")))).cpu);
    }
  }

  // Per task: init + initial checkpoint + `turns` writing turns + completion (nothing changed since the last turn).
  const perTurn = (total: number) => (total / turns).toFixed(1);
  console.log(`${turns} writing turns per task (edit a file; every third turn also creates one), then a completion; ${rounds} interleaved rounds, median CPU (this process + git children)`);
  console.log(`git launches per task:  before ${beforeLaunches}, cairn ${cairnLaunches}  (per writing turn about ${perTurn(beforeLaunches)} -> ${perTurn(cairnLaunches)})`);
  console.log(`CPU per task:           before ${median(beforeCpu).toFixed(0)} ms, cairn ${median(cairnCpu).toFixed(0)} ms  (per turn ${perTurn(median(beforeCpu))} -> ${perTurn(median(cairnCpu))} ms)`);
  const launchRatio = cairnLaunches / beforeLaunches;
  const cpuRatio = median(cairnCpu) / median(beforeCpu);
  const launchPass = launchRatio <= 0.75;
  const cpuPass = cpuRatio < 1;
  if (!launchPass) failures += 1;
  if (!cpuPass) failures += 1;
  console.log(`git launches cairn / before: ${launchRatio.toFixed(2)}x (goal <= 0.75) ${launchPass ? "PASS" : "FAIL"}`);
  console.log(`CPU cairn / before:          ${cpuRatio.toFixed(2)}x (goal < 1) ${cpuPass ? "PASS" : "FAIL"}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
process.exitCode = failures === 0 ? 0 : 1;
