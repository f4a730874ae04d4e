import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAlive, killLeftovers } from "../test-support/processes.js";
import { runCommand } from "./run-command.js";
import type { RunCommandOptions } from "./run-command.js";

let folder: string;
const started: number[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-bg-"));
});

afterEach(async () => {
  killLeftovers(started);
  await rm(folder, { recursive: true, force: true });
});

async function pidIn(file: string): Promise<number> {
  const pid = Number((await readFile(file, "utf8")).trim());
  started.push(pid);
  return pid;
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

function run(command: string, extra: Partial<RunCommandOptions> = {}) {
  return runCommand({
    command,
    cwd: folder,
    shell: "/bin/sh",
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    outputFile: join(folder, "out.log"),
    ...extra,
  });
}

describe("processes a command starts in the background do not outlive it", () => {
  it("a background child (`sleep 300 &`) is ended when the command finishes", async () => {
    const result = await run(`sleep 300 & echo $! > ${folder}/bg.pid; echo started`).done;
    expect(result.end).toMatchObject({ kind: "exited", exitCode: 0 });
    expect(result.output).toContain("started");
    expect(await goneWithin(await pidIn(join(folder, "bg.pid")), 3000)).toBe(true);
  });

  it("a child that left the process group with setsid is found and ended too", async () => {
    await run(`setsid sleep 300 > /dev/null 2>&1 & echo $! > ${folder}/bg.pid`).done;
    expect(await goneWithin(await pidIn(join(folder, "bg.pid")), 3000)).toBe(true);
  });

  it("background children are ended when the command times out, and when it is aborted", async () => {
    await run(`sleep 300 & echo $! > ${folder}/t.pid; sleep 200`, { timeoutMs: 400 }).done;
    expect(await goneWithin(await pidIn(join(folder, "t.pid")), 3000)).toBe(true);
    const controller = new AbortController();
    const running = run(`setsid sleep 300 > /dev/null 2>&1 & echo $! > ${folder}/a.pid; sleep 200`, { signal: controller.signal });
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !(await readFile(join(folder, "a.pid"), "utf8").catch(() => "")).trim()) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300)); // let setsid leave the group first
    controller.abort();
    expect((await running.done).end.kind).toBe("aborted");
    expect(await goneWithin(await pidIn(join(folder, "a.pid")), 3000)).toBe(true);
  });

  it("with keepBackgroundProcesses, a background child is left running", async () => {
    await run(`sleep 300 > /dev/null 2>&1 & echo $! > ${folder}/keep.pid`, { keepBackgroundProcesses: true }).done;
    const pid = await pidIn(join(folder, "keep.pid"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isAlive(pid)).toBe(true);
  });
});
