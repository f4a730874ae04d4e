/** The placeholder record: what a cairn that dies mid-command leaves behind is cleaned by the next start, and nothing else. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as PlaceholdersModule from "./placeholders.js";

type Placeholders = typeof PlaceholdersModule;

let root: string;
let record: string;
const fresh = async (): Promise<Placeholders> => {
  vi.resetModules();
  return import("./placeholders.js");
};
const entries = (): Array<{ path: string; pid: number }> => JSON.parse(readFileSync(record, "utf8")) as Array<{ path: string; pid: number }>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-placeholders-"));
  record = join(root, "data", "sandbox", "placeholders.json");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("placeholders", () => {
  it("are recorded with this cairn's pid while held and removed when released", async () => {
    const placeholders = await fresh();
    placeholders.usePlaceholderRecord(record);
    const path = join(root, ".cairn");
    const held = placeholders.acquirePlaceholders([path]);
    expect(existsSync(path)).toBe(true);
    expect(entries()).toEqual([{ path, pid: process.pid }]);
    held.release();
    expect(existsSync(path)).toBe(false);
  });

  it("a folder that already exists is not made, not recorded, and kept after a later start's cleanup", async () => {
    const placeholders = await fresh();
    placeholders.usePlaceholderRecord(record);
    const users = join(root, "hooks");
    mkdirSync(users);
    const held = placeholders.acquirePlaceholders([users]);
    expect(held.created).toEqual([]);
    expect(entries()).toEqual([]);
    (await fresh()).usePlaceholderRecord(record);
    expect(existsSync(users)).toBe(true);
  });

  it("the next start removes what a dead cairn recorded (empty folders only) and keeps a living one's", async () => {
    const dead = join(root, "dead");
    const deadWithFiles = join(root, "dead-with-files");
    const living = join(root, "living");
    for (const path of [dead, deadWithFiles, living]) mkdirSync(path);
    writeFileSync(join(deadWithFiles, "work.txt"), "kept");
    mkdirSync(join(root, "data", "sandbox"), { recursive: true });
    const deadPid = 2 ** 22 + 1; // above pid_max: no such process
    writeFileSync(
      record,
      JSON.stringify([
        { path: dead, pid: deadPid },
        { path: deadWithFiles, pid: deadPid },
        { path: living, pid: process.ppid },
      ]),
    );
    (await fresh()).usePlaceholderRecord(record);
    expect([existsSync(dead), existsSync(deadWithFiles), existsSync(living)]).toEqual([false, true, true]);
    expect(entries()).toEqual([{ path: living, pid: process.ppid }]);
  });
});
