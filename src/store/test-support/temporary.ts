import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UiMessage } from "../../task/contracts/messages.js";

/** A fresh folder under the system temp dir, and its removal. */
export async function temporaryFolder(prefix = "cairn-store-"): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export function say(id: string, text: string, say: "text" | "api_req_started" | "checkpoint_created" = "text", ts = 1000): UiMessage {
  return { id, ts, type: "say", say, text, partial: false };
}
