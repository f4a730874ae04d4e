import { temporaryFolder } from "../../test-support/temporary-folder.js";
import { usePerTest } from "../../test-support/per-test.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import { TaskStore } from "../task-store.js";

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
  const current = usePerTest(
    "the temporary store",
    async () => {
      const folder = await temporaryFolder("cairn-store-");
      return { folder, store: new TaskStore({ dataDir: folder.path }) };
    },
    ({ folder }) => folder.remove(),
  );
  return {
    get dataDir() {
      return current().folder.path;
    },
    get store() {
      return current().store;
    },
  };
}
