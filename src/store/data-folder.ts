import { constants } from "node:fs";
import { access, mkdir } from "node:fs/promises";

/** cairn's data folder (tasks, checkpoints, history) cannot be created or written. */
export class DataFolderError extends Error {
  constructor(
    readonly folder: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? (cause.message.split(",")[0] ?? cause.message) : String(cause);
    super(`the data folder ${folder} cannot be created or written (${reason}); choose another folder for cairn's tasks and ` + `checkpoints with CAIRN_HOME=<folder> or --data-dir <folder>`, { cause });
    this.name = "DataFolderError";
  }
}

/** Creates the data folder if needed and checks that it can be written; throws DataFolderError. */
export async function ensureDataFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
    await access(folder, constants.W_OK);
  } catch (error) {
    throw new DataFolderError(folder, error);
  }
}
