/**
 * Writing a file exactly where it was approved. A file tool resolves its path
 * (links followed) and asks for approval; between that moment and the write,
 * anything running in the workspace (a command left in the background, a hook)
 * could swap a folder on the way, or the file itself, for a link into
 * `.git/hooks` or out of the workspace. So the write never follows a link: the
 * approved real path is opened one folder at a time from `/` with O_NOFOLLOW
 * (every component of a real path is a real folder, so a link met on the way
 * can only have been put there since), the folder reached is checked again
 * through `/proc/self/fd/N`, and the new content is written to a temporary file
 * created inside that folder descriptor and renamed over the target there.
 * Anything that no longer matches is refused with `PathChangedError` and
 * nothing is written.
 */
import { randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";

/** The path to write no longer is what was approved (a link or another folder is in the way). */
export class PathChangedError extends Error {
  override readonly name = "PathChangedError";
}

const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function changed(path: string, what: string): PathChangedError {
  return new PathChangedError(`${path} changed since the write was approved (${what}), so cairn refused to write through it`);
}

/** Opens the folder `real` (absolute, links resolved) without following any link, creating missing folders. */
async function openFolderNoFollow(real: string): Promise<FileHandle> {
  let handle = await open("/", folderFlags);
  let reached: string = sep;
  try {
    for (const part of real.split(sep).filter((segment) => segment !== "")) {
      const child = `/proc/self/fd/${handle.fd}/${part}`;
      const next = join(reached, part);
      let opened: FileHandle;
      try {
        opened = await open(child, folderFlags);
      } catch (error) {
        const code = errorCode(error);
        if (code === "ELOOP" || code === "ENOTDIR") throw changed(next, "it is now a link or not a folder");
        if (code !== "ENOENT") throw error;
        // mkdir does not follow a link in the last place either: a link put there meanwhile fails the open below.
        await mkdir(child).catch((mkdirError: unknown) => {
          if (errorCode(mkdirError) !== "EEXIST") throw mkdirError;
        });
        try {
          opened = await open(child, folderFlags);
        } catch (again) {
          const againCode = errorCode(again);
          if (againCode === "ELOOP" || againCode === "ENOTDIR") throw changed(next, "it is now a link or not a folder");
          throw again;
        }
      }
      await handle.close();
      handle = opened;
      reached = next;
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function checkFolder(handle: FileHandle, real: string): Promise<void> {
  const now = await readlink(`/proc/self/fd/${handle.fd}`);
  if (now !== real) throw changed(real, `the folder is now at ${now}`);
}

/**
 * Replaces the file at `real` (absolute, every link resolved when it was
 * approved) with `content` as one step, keeping its mode; creates missing folders.
 */
export async function writeFileRaceFree(real: string, content: Buffer): Promise<{ created: boolean }> {
  if (!existsSync("/proc/self/fd")) return writeWithoutDescriptorPaths(real, content);
  const folderPath = dirname(real);
  const name = basename(real);
  const folder = await openFolderNoFollow(folderPath);
  try {
    await checkFolder(folder, folderPath);
    const inFolder = (entry: string): string => `/proc/self/fd/${folder.fd}/${entry}`;
    const existing = await lstat(inFolder(name)).catch((error: unknown) => {
      if (errorCode(error) === "ENOENT") return undefined;
      throw error;
    });
    if (existing?.isSymbolicLink() === true) throw changed(real, "it is now a link");
    if (existing?.isDirectory() === true) throw new Error(`${real} is a folder`);
    const mode = existing === undefined ? 0o666 : existing.mode & 0o7777;
    const temporary = `.${name}.cairn-${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    const file = await open(inFolder(temporary), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      try {
        await file.writeFile(content);
        // The umask narrowed the mode of a new file as it should; an existing file keeps its own.
        if (existing !== undefined) await file.chmod(mode);
      } finally {
        await file.close();
      }
      // The last moment before the rename: the folder must still be where it was approved.
      await checkFolder(folder, folderPath);
      await rename(inFolder(temporary), inFolder(name));
    } catch (error) {
      await rm(inFolder(temporary), { force: true });
      throw error;
    }
    return { created: existing === undefined };
  } finally {
    await folder.close();
  }
}

/** Without /proc (not Linux): the folder's real path and the file are checked right before an atomic write. */
async function writeWithoutDescriptorPaths(real: string, content: Buffer): Promise<{ created: boolean }> {
  const folderPath = dirname(real);
  await mkdir(folderPath, { recursive: true });
  if ((await realpath(folderPath)) !== folderPath) throw changed(folderPath, "a link is now on the way");
  const existing = await lstat(real).catch(() => undefined);
  if (existing?.isSymbolicLink() === true) throw changed(real, "it is now a link");
  const temporary = join(folderPath, `.${basename(real)}.cairn-${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
  const file = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, existing === undefined ? 0o666 : existing.mode & 0o7777);
  try {
    try {
      await file.writeFile(content);
      if (existing !== undefined) await file.chmod(existing.mode & 0o7777);
    } finally {
      await file.close();
    }
    await rename(temporary, real);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return { created: existing === undefined };
}
