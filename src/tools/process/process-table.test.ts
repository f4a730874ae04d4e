import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAlive, killLeftovers } from "../test-support/processes.js";
import { ProcessTable } from "./process-table.js";

let folder: string;
let table: ProcessTable;
const started: number[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-ps-"));
  table = new ProcessTable();
});

afterEach(async () => {
  await table.dispose();
  killLeftovers(started);
  await rm(folder, { recursive: true, force: true });
});

function start(command: string) {
  return table.start({ command, cwd: folder, launch: { file: "/bin/sh", args: ["-c", command], env: process.env }, logFolder: join(folder, "logs"), taskId: "t1" });
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("the background process table", () => {
  it("keeps a process's exit code and output, and reads only what is new", async () => {
    const first = start("echo one; echo two; exit 3");
    expect(first.id).toBe("p1");
    await until(() => table.get("p1")?.state === "exited");
    expect(table.get("p1")).toMatchObject({ state: "exited", exitCode: 3, lastLine: "two" });
    expect(table.readNew("p1")?.text).toBe("one\ntwo\n");
    expect(table.readNew("p1")?.text).toBe("");
    expect(table.readLast("1", 1)).toBe("two");
    expect(await readFile(join(folder, "logs", "p1.log"), "utf8")).toBe("one\ntwo\n");
  });

  it("an earlier run's logs in the folder are kept: ids go on after them", async () => {
    await mkdir(join(folder, "logs"), { recursive: true });
    await writeFile(join(folder, "logs", "p1.log"), "the first run's server\n");
    expect(start("echo again").id).toBe("p2");
    expect(await readFile(join(folder, "logs", "p1.log"), "utf8")).toBe("the first run's server\n");
  });

  it("stop ends the process, its group and a child that left it with setsid", async () => {
    const running = start(`setsid sleep 300 > /dev/null 2>&1 & echo $! > ${folder}/sid.pid; echo up; sleep 300`);
    await until(() => table.get(running.id)?.lastLine === "up");
    const sid = Number((await readFile(join(folder, "sid.pid"), "utf8")).trim());
    started.push(sid);
    expect(table.running().map((process) => process.id)).toEqual(["p1"]);
    const stopped = await table.stop("p1");
    expect(stopped?.state).toBe("stopped");
    await until(() => !isAlive(sid));
    expect(isAlive(sid)).toBe(false);
    expect(running.pid !== undefined && isAlive(running.pid)).toBe(false);
    expect(table.running()).toEqual([]);
  });

  it("a long output is read to its end, saying how much was left out", async () => {
    start("node -e \"process.stdout.write('x'.repeat(50000) + 'END')\"");
    await until(() => table.get("p1")?.state === "exited");
    const read = table.readNew("p1");
    expect(read?.text.endsWith("END")).toBe(true);
    expect(read?.text.length).toBe(16_000);
    expect(read?.omitted).toBe(50_003 - 16_000);
  });
});
