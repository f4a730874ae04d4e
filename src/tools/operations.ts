/**
 * The file-system and process operations the file and command tools perform,
 * behind one small seam (DESIGN: "Operations under tools"). cairn's own
 * implementation works on the local disk and shell; an editor host (ACP) can
 * supply its own so reads see unsaved buffers, writes land in the editor and
 * commands run in the editor's terminal. Path checks, the ignore file and
 * approvals happen in the tools before any operation, whichever runs it.
 */
import { readFile } from "node:fs/promises";
import { runCommand } from "./command/run-command.js";
import type { CommandResult, RunCommandOptions } from "./command/run-command.js";
import { writeFileRaceFree } from "./race-free-write.js";

export interface RunningCommand {
  done: Promise<CommandResult>;
  stop(): Promise<void>;
}

export interface WorkspaceOperations {
  /** The bytes of a file (absolute path); rejects with `code: "ENOENT"` when it does not exist. */
  readFile(path: string): Promise<Buffer>;
  /**
   * Replaces a file's content as one step; `created` tells whether it did not exist before.
   * `path` is the real path that was approved: the local implementation refuses to follow a
   * link put on the way since (race-free-write.ts).
   */
  writeFile(path: string, content: Buffer): Promise<{ created: boolean }>;
  /** Starts a shell command; it ends on its own, on timeout, or when `signal` aborts. */
  runCommand(options: RunCommandOptions): RunningCommand;
}

export const localOperations: WorkspaceOperations = {
  readFile: (path) => readFile(path),
  writeFile: (path, content) => writeFileRaceFree(path, content),
  runCommand: (options) => runCommand(options),
};
