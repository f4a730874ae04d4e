import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskLockedError } from "./lock.js";
import { startAppendChild } from "./test-support/child-process.js";
import { entrySize } from "./test-support/entry-size.js";
import { useTemporaryStore } from "./test-support/temporary.js";

const fixture = useTemporaryStore();

/** A pseudo-random but repeatable sequence, so a failure can be replayed. */
function randomSequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe("crash safety", () => {
  it("survives kill -9 at 20 random points: every acknowledged entry loads, at most the torn last line is lost", async () => {
    const random = randomSequence(20261130);
    const acked = new Set<number>();
    for (let round = 0; round < 20; round += 1) {
      const running = startAppendChild({ dataDir: fixture.dataDir, taskId: "crash", mode: "append" });
      const start = Number((await running.waitForLine(/^start /)).slice(6));
      // Let it acknowledge a random number of entries, then kill it wherever it is.
      const target = start + Math.floor(random() * 15);
      await running.waitForLine(new RegExp(`^acked ${target}$`));
      await running.kill();
      for (const line of running.lines) if (line.startsWith("acked ")) acked.add(Number(line.slice(6)));

      const loaded = await fixture.store.load("crash");
      const ids = loaded.uiMessages.map((message) => Number(message.id));
      // Contiguous from 0: nothing in the middle went missing.
      expect(ids).toEqual(ids.map((_, index) => index));
      expect(ids.length).toBeGreaterThanOrEqual(Math.max(...acked) + 1);
      for (const message of loaded.uiMessages) expect(message.text.length).toBe(entrySize(Number(message.id)));
      const apiSequences = new Set(loaded.apiHistory.map((message) => Number((message.content[0] as { text: string }).text)));
      for (const sequence of acked) expect(apiSequences.has(sequence)).toBe(true);
      // Only the current last line may be reported torn; earlier torn tails show as skipped lines.
      const tornReports = loaded.warnings.filter((warning) => warning.includes("cut off mid-write"));
      expect(tornReports.length).toBeLessThanOrEqual(1);
      expect(loaded.warnings.length).toBeLessThanOrEqual(round + 1);
    }
    expect(acked.size).toBeGreaterThan(20);
  }, 600_000);
});

describe("task lock", () => {
  it("refuses a second process while the first one is alive, naming its pid", async () => {
    const first = await fixture.store.create({ taskId: "busy", task: "t", workspace: "/w" });
    await first.close();
    const holder = startAppendChild({ dataDir: fixture.dataDir, taskId: "busy", mode: "hold" });
    try {
      await holder.waitForLine(/^holding$/);
      const attempt = fixture.store.open("busy");
      await expect(attempt).rejects.toThrow(TaskLockedError);
      await expect(fixture.store.open("busy")).rejects.toThrow(`task busy is open in another cairn process (pid ${holder.child.pid})`);
      // Reading it is still fine.
      expect((await fixture.store.load("busy")).meta.taskId).toBe("busy");
    } finally {
      await holder.kill();
    }
  });

  it("takes over the lock of a process that was killed", async () => {
    const first = await fixture.store.create({ taskId: "orphan", task: "t", workspace: "/w" });
    await first.close();
    const holder = startAppendChild({ dataDir: fixture.dataDir, taskId: "orphan", mode: "hold" });
    await holder.waitForLine(/^holding$/);
    await holder.kill();
    const { writer } = await fixture.store.open("orphan");
    await writer.close();
  });

  it("respects a lock from another host and says how to clear it", async () => {
    const first = await fixture.store.create({ taskId: "remote", task: "t", workspace: "/w" });
    await first.close();
    const lockPath = join(fixture.dataDir, "tasks", "remote", "lock");
    await writeFile(lockPath, JSON.stringify({ pid: 4242, startTime: "1", host: "another-machine" }));
    await expect(fixture.store.open("remote")).rejects.toThrow(
      `task remote is open in another cairn process (pid 4242 on host another-machine); finish or stop it there first; if it is no longer running, delete ${lockPath} and try again`,
    );
  });

  it("takes over a lock whose pid now belongs to a different process (pid reuse)", async () => {
    const first = await fixture.store.create({ taskId: "reused", task: "t", workspace: "/w" });
    await first.close();
    const { hostname } = await import("node:os");
    // Our own pid, but a start time that is not ours: the process that wrote it is gone.
    await writeFile(join(fixture.dataDir, "tasks", "reused", "lock"), JSON.stringify({ pid: process.pid, startTime: "1", host: hostname() }));
    const { writer } = await fixture.store.open("reused");
    await writer.close();
  });

  it("refuses a second writer in the same process too", async () => {
    const writer = await fixture.store.create({ taskId: "twice", task: "t", workspace: "/w" });
    await expect(fixture.store.open("twice")).rejects.toThrow(/is open in another cairn process/);
    await writer.close();
    const { writer: again } = await fixture.store.open("twice");
    await again.close();
  });
});
