/** One entry of a git index file, as far as seeding the shadow index needs it. */
export interface IndexEntry {
  /** The path's bytes as Latin-1 (one character a byte); `utf8Path` gives the real name. */
  path: string;
  mode: number;
  /** The size git recorded when the file was staged (truncated to 32 bits, as git stores it). */
  size: number;
  skipWorktree: boolean;
  /** Merge stage (0 unless a merge left a conflict). */
  stage: number;
  /** `git update-index --assume-unchanged`: git does not look at the file. */
  assumeValid: boolean;
  /** `git add -N`: tracked, its content not yet staged. */
  intentToAdd: boolean;
}

export interface IndexSummary {
  version: number;
  entries: IndexEntry[];
  /** Extension signatures ("TREE", "UNTR", "link", "sdir", ...). */
  extensions: string[];
  /** The tree of the whole index, from the cache-tree extension (TREE), when it is valid for the root. */
  rootTree?: string;
  /** Every tree id that extension names, the root's first (all valid when the root is). */
  treeIds: string[];
  /** The names of the folders those trees are (Latin-1 view of the bytes), where `treeIds` is not empty. */
  treeNames: string[];
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
/** The index's version, its number of entries and where they can end at most (before the trailing SHA-1 checksum); undefined if it is not an index. */
function indexHeader(buffer: Buffer): { version: number; count: number; end: number } | undefined {
  if (buffer.length < 32 || buffer.toString("latin1", 0, 4) !== "DIRC") return undefined;
  return { version: buffer.readUInt32BE(4), count: buffer.readUInt32BE(8), end: buffer.length - 20 };
}

export function readIndexSummary(buffer: Buffer): IndexSummary | undefined {
  const header = indexHeader(buffer);
  if (header === undefined || header.version < 2 || header.version > 4) return undefined;
  const { version, count, end } = header;
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
      entries.push({
        path: name.toString("latin1"),
        mode,
        size,
        skipWorktree: (extended & 0x4000) !== 0,
        stage: (flags >> 12) & 3,
        assumeValid: (flags & 0x8000) !== 0,
        intentToAdd: (extended & 0x2000) !== 0,
      });
    }
    const extensions: string[] = [];
    let treeIds: string[] = [];
    let treeNames: string[] = [];
    while (offset + 8 <= end) {
      const signature = buffer.toString("latin1", offset, offset + 4);
      const size = buffer.readUInt32BE(offset + 4);
      extensions.push(signature);
      if (signature === "TREE") ({ ids: treeIds, names: treeNames } = cacheTree(buffer.subarray(offset + 8, offset + 8 + size)));
      offset += 8 + size;
    }
    if (offset !== end) return undefined;
    const rootTree = treeIds[0];
    return { version, entries, extensions, treeIds, treeNames, ...(rootTree === undefined ? {} : { rootTree }) };
  } catch {
    return undefined; // a read past the end: not an index this reader understands
  }
}

/**
 * The tree ids of a cache-tree extension (git's index-format.txt): per folder, root first,
 * its name and NUL, the entry count (-1: invalid), a space, the subtree count, a newline,
 * then the tree's 20-byte id when valid; and the folders' names. Empty when the root is
 * invalid (an invalid folder makes every folder above it invalid) or it cannot be read.
 */
function cacheTree(data: Buffer): { ids: string[]; names: string[] } {
  const ids: string[] = [];
  const names: string[] = [];
  const none = { ids: [], names: [] };
  let at = 0;
  while (at < data.length) {
    const nul = data.indexOf(0, at);
    const newline = data.indexOf(0x0a, nul);
    if (nul === -1 || newline === -1) return none;
    const counts = /^(-?\d+) (\d+)$/.exec(data.toString("latin1", nul + 1, newline));
    if (counts === null) return none;
    names.push(data.toString("latin1", at, nul));
    at = newline + 1;
    if (Number(counts[1]) < 0) {
      if (ids.length === 0) return none;
      continue;
    }
    if (at + 20 > data.length) return none;
    ids.push(data.toString("hex", at, at + 20));
    at += 20;
  }
  return { ids, names };
}

/** What `scanIndex` tells without reading every entry's name. */
export interface IndexScan {
  /** Some entry is skip-worktree (a sparse checkout). */
  skipWorktree: boolean;
  /** Some entry is a conflict's, intent-to-add or assume-unchanged. */
  unusual: boolean;
  /** Some entry is a gitlink, over `largeBytes`, or has a name `suspectName` picks: its path must be read. */
  notable: boolean;
  rootTree?: string;
  treeIds: string[];
  treeNames: string[];
  extensions: string[];
}

/**
 * The fast pass over an index of version 2 or 3 (50,000 entries in a few ms): each
 * entry's flags, mode and size, its name looked at in place by `suspectName` (the
 * buffer, the name's start and end), no string made. Undefined for version 4 (names
 * are prefix-compressed) or anything unusual: then `readIndexSummary`.
 */
export function scanIndex(buffer: Buffer, largeBytes: number, suspectName: (buffer: Buffer, start: number, end: number) => boolean): IndexScan | undefined {
  const header = indexHeader(buffer);
  if (header === undefined || (header.version !== 2 && header.version !== 3)) return undefined;
  const { version, count, end } = header;
  let offset = 12;
  let skipWorktree = false;
  let unusual = false;
  let notable = false;
  for (let index = 0; index < count; index += 1) {
    const start = offset;
    if (start + 62 > end) return undefined;
    const mode = buffer.readUInt32BE(start + 24);
    const size = buffer.readUInt32BE(start + 36);
    const flags = buffer.readUInt16BE(start + 60);
    let cursor = start + 62;
    if ((flags & 0x4000) !== 0) {
      if (version < 3) return undefined;
      const extended = buffer.readUInt16BE(cursor);
      cursor += 2;
      if ((extended & 0x4000) !== 0) skipWorktree = true;
      if ((extended & 0x2000) !== 0) unusual = true;
    }
    if ((flags & 0xb000) !== 0) unusual = true;
    const length = flags & 0xfff;
    if (length === 0xfff) return undefined;
    offset = start + ((cursor - start + length + 8) & ~7);
    if (!notable && ((mode & 0o170000) === gitlinkMode || size > largeBytes || suspectName(buffer, cursor, cursor + length))) notable = true;
  }
  const extensions: string[] = [];
  let tree: { ids: string[]; names: string[] } = { ids: [], names: [] };
  while (offset + 8 <= end) {
    const signature = buffer.toString("latin1", offset, offset + 4);
    const size = buffer.readUInt32BE(offset + 4);
    extensions.push(signature);
    if (signature === "TREE") tree = cacheTree(buffer.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  if (offset !== end) return undefined;
  const rootTree = tree.ids[0];
  return { skipWorktree, unusual, notable, treeIds: tree.ids, treeNames: tree.names, extensions, ...(rootTree === undefined ? {} : { rootTree }) };
}
