/**
 * Remembers, per executor, what the model last read of each file, so a second
 * read of an unchanged file can say so instead of resending the text, and an
 * edit can tell the model when the file changed on disk since it read it.
 */
import { createHash } from "node:crypto";

export interface FileStamp {
  mtimeMs: number;
  size: number;
  hash: string;
}

export function stampOf(content: Buffer, stat: { mtimeMs: number; size: number }): FileStamp {
  return { mtimeMs: stat.mtimeMs, size: stat.size, hash: createHash("sha256").update(content).digest("hex") };
}

function sameStamp(left: FileStamp, right: FileStamp): boolean {
  return left.mtimeMs === right.mtimeMs && left.size === right.size && left.hash === right.hash;
}

export class FileTracker {
  private readonly reads = new Map<string, { stamp: FileStamp; window: string }>();

  /** True when the same window of the same, unchanged file was already sent. */
  isRepeatRead(path: string, stamp: FileStamp, window: string): boolean {
    const previous = this.reads.get(path);
    return previous !== undefined && previous.window === window && sameStamp(previous.stamp, stamp);
  }

  recordRead(path: string, stamp: FileStamp, window: string): void {
    this.reads.set(path, { stamp, window });
  }

  /** The file changed on disk since the model last read it (undefined when never read). */
  changedSinceRead(path: string, current: FileStamp): boolean | undefined {
    const previous = this.reads.get(path);
    if (previous === undefined) return undefined;
    return previous.stamp.hash !== current.hash;
  }

  /** After cairn itself wrote the file, the model's last read no longer describes it. */
  forget(path: string): void {
    this.reads.delete(path);
  }
}
