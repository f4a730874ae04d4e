import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { acquireTaskLock } from "./lock.js";

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
const contenderScript = fileURLToPath(new URL("./test-support/lock-contender.ts", import.meta.url));

/** A lock record of a process that no longer exists (no pid is this high). */
const staleRecord = JSON.stringify({ pid: 999_999_999, startTime: "1", host: hostname() });

interface Contender {
  child: ChildProcess;
  answers: Map<string, string>;
}

function startContender(): Promise<Contender> {
  const child = spawn(process.execPath, ["--import", "tsx", contenderScript], { cwd: projectRoot, stdio: ["pipe", "pipe", "inherit"] });
  const answers = new Map<string, string>();
  let pending = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`a lock contender exited (${code})`)));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (data: string) => {
      pending += data;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "ready") resolve({ child, answers });
        const [verdict, path, ...rest] = line.split(" ");
        if (path !== undefined && verdict !== undefined) answers.set(path, [verdict, ...rest].join(" "));
      }
    });
  });
}

describe("task lock takeover across processes", () => {
  const contenders: Contender[] = [];
  let folder: { path: string; remove(): Promise<void> };

  beforeAll(async () => {
    folder = await temporaryFolder("cairn-lock-race-");
    contenders.push(...(await Promise.all(Array.from({ length: 4 }, () => startContender()))));
  }, 60_000);

  afterAll(async () => {
    for (const contender of contenders) contender.child.kill("SIGKILL");
    await folder.remove();
  });

  it("of four processes that find the same stale lock, exactly one takes it, in every one of 200 trials", { timeout: 120_000 }, async () => {
    const trials = 200;
    const winners: number[] = [];
    for (let trial = 0; trial < trials; trial += 1) {
      const dir = join(folder.path, `trial-${trial}`);
      await mkdir(dir);
      const path = join(dir, "lock");
      await writeFile(path, staleRecord);
      for (const contender of contenders) contender.child.stdin!.write(`${path}\n`);
      const deadline = Date.now() + 20_000;
      while (contenders.some((contender) => !contender.answers.has(path))) {
        if (Date.now() > deadline) throw new Error(`trial ${trial}: no answer from every contender`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const verdicts = contenders.map((contender) => contender.answers.get(path) ?? "");
      for (const verdict of verdicts) expect(verdict).toMatch(/^(held|locked)$/);
      winners.push(verdicts.filter((verdict) => verdict === "held").length);
      // What is left: the winner's lock, and no claim or candidate files.
      expect(await readdir(dir)).toEqual(["lock"]);
    }
    expect(winners.filter((count) => count !== 1)).toEqual([]);
  });
});

describe("task lock release", () => {
  it("releasing a lock that another process took over leaves that process's lock in place", async () => {
    const folder = await temporaryFolder("cairn-lock-release-");
    try {
      const path = join(folder.path, "lock");
      const held = await acquireTaskLock({ path, taskId: "t" });
      const other = JSON.stringify({ pid: process.ppid, startTime: undefined, host: hostname(), token: "someone-else" });
      await writeFile(path, other);
      await held.release();
      expect(await readFile(path, "utf8")).toBe(other);
    } finally {
      await folder.remove();
    }
  });
});
