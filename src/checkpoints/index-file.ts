/** One entry of a git index file, as far as seeding the shadow index needs it. */
export interface IndexEntry {
  /** The path's bytes as Latin-1 (one character a byte); `utf8Path` gives the real name. */
  path: string;
  mode: number;
  /** The size git recorded when the file was staged (truncated to 32 bits, as git stores it). */
  size: number;
  skipWorktree: boolean;
}

export interface IndexSummary {
  version: number;
  entries: IndexEntry[];
  /** Extension signatures ("TREE", "UNTR", "link", "sdir", ...). */
  extensions: string[];
}

const gitlinkMode = 0o160000;

/** An entry's path as the file's name (UTF-8). */
export const utf8Path = (entry: IndexEntry): string => Buffer.from(entry.path, "latin1").toString("utf8");

export const isGitlink = (entry: IndexEntry): boolean => (entry.mode & 0o170000) === gitlinkMode;

/**
 * Reads a SHA-1 git index (versions 2 to 4): each entry's path, mode, size and
 * skip-worktree bit, and the extensions' names. Undefined when the file is not one
 * this reader understands (then the shadow index is not seeded from it).
 */
export function readIndexSummary(buffer: Buffer): IndexSummary | undefined {
  if (buffer.length < 32 || buffer.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = buffer.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buffer.readUInt32BE(8);
  const end = buffer.length - 20; // the trailing SHA-1 checksum
  const entries: IndexEntry[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  try {
    for (let index = 0; index < count; index += 1) {
      const start = offset;
      if (start + 62 > end) return undefined;
      const mode = buffer.readUInt32BE(start + 24);
      const size = buffer.readUInt32BE(start + 36);
      const flags = buffer.readUInt16BE(start + 60);
      let cursor = start + 62;
      let extended = 0;
      if ((flags & 0x4000) !== 0) {
        if (version < 3) return undefined;
        extended = buffer.readUInt16BE(cursor);
        cursor += 2;
      }
      let name: Buffer;
      const length = flags & 0xfff;
      if (version !== 4 && length < 0xfff) {
        // The usual case: the name's length is in the flags, then 1 to 8 NULs pad the entry to a multiple of 8 bytes.
        name = buffer.subarray(cursor, cursor + length);
        offset = start + ((cursor - start + length + 8) & ~7);
      } else if (version === 4) {
        // The name is the previous one minus `strip` bytes, plus a NUL-terminated suffix (git's offset varint).
        let byte = buffer[cursor++]!;
        let strip = byte & 0x7f;
        while ((byte & 0x80) !== 0) {
          byte = buffer[cursor++]!;
          strip = ((strip + 1) << 7) | (byte & 0x7f);
        }
        const nul = buffer.indexOf(0, cursor);
        if (nul === -1 || strip > previous.length) return undefined;
        name = Buffer.concat([previous.subarray(0, previous.length - strip), buffer.subarray(cursor, nul)]);
        offset = nul + 1;
      } else {
        const nul = buffer.indexOf(0, cursor);
        if (nul === -1) return undefined;
        name = buffer.subarray(cursor, nul);
        // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
        offset = start + ((cursor - start + name.length + 8) & ~7);
      }
      previous = name;
      // Latin-1 is a cheap one-to-one view of the bytes: ASCII patterns match it as they match UTF-8 (see utf8Path).
      entries.push({ path: name.toString("latin1"), mode, size, skipWorktree: (extended & 0x4000) !== 0 });
    }
    const extensions: string[] = [];
    while (offset + 8 <= end) {
      extensions.push(buffer.toString("latin1", offset, offset + 4));
      offset += 8 + buffer.readUInt32BE(offset + 4);
    }
    if (offset !== end) return undefined;
    return { version, entries, extensions };
  } catch {
    return undefined; // a read past the end: not an index this reader understands
  }
}
