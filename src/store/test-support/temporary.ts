import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { UiMessage } from "../../task/contracts/messages.js";
import { TaskStore } from "../task-store.js";

/** A fresh folder under the system temp dir, and its removal. */
export async function temporaryFolder(prefix = "cairn-store-"): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export function say(id: string, text: string, say: "text" | "api_req_started" | "checkpoint_created" = "text", ts = 1000): UiMessage {
  return { id, ts, type: "say", say, text, partial: false };
}

export interface TemporaryStore {
  /** This test's data folder; made before each test, removed after it. */
  readonly dataDir: string;
  /** A TaskStore on that folder. */
  readonly store: TaskStore;
}

/** Registers the hooks in the calling test file: a fresh data folder and TaskStore for each test. */
export function useTemporaryStore(): TemporaryStore {
  let current: { folder: { path: string; remove(): Promise<void> }; store: TaskStore } | undefined;
  beforeEach(async () => {
    const folder = await temporaryFolder();
    current = { folder, store: new TaskStore({ dataDir: folder.path }) };
  });
  afterEach(async () => {
    await current?.folder.remove();
    current = undefined;
  });
  const active = (): NonNullable<typeof current> => {
    if (current === undefined) throw new Error("the temporary store exists only while a test runs");
    return current;
  };
  return {
    get dataDir() {
      return active().folder.path;
    },
    get store() {
      return active().store;
    },
  };
}
