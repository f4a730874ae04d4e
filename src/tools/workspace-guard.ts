/**
 * Decides where a path the model gave really points, whether that is inside
 * the workspace, and whether the ignore file hides it. Links are followed
 * (also dangling ones, by reading the link target), so a link inside the
 * workspace that points out is "outside".
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

export interface ResolvedPath {
  /** What the model wrote. */
  requested: string;
  /** Absolute path before links are followed. */
  absolute: string;
  /** Absolute path with every link followed (nearest existing parent for new paths). */
  real: string;
  inside: boolean;
  /** Path relative to the workspace (posix separators) when inside, else the real absolute path. */
  display: string;
  /** Hidden by .cairnignore / .clineignore. */
  ignored: boolean;
}

const ignoreFileNames = [".cairnignore", ".clineignore"];
const maximumLinkDepth = 40;

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/**
 * realpath that also resolves dangling links and paths that do not exist yet.
 * Missing paths are found without throwing: deciding one command resolves
 * dozens of words that name no file, and an exception per word costs more
 * than the decision.
 */
export function resolveReal(path: string, depth = 0): string {
  if (depth > maximumLinkDepth) return path;
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOTDIR" && code !== "ENOENT") return path;
    stats = undefined;
  }
  if (stats === undefined) {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(resolveReal(parent, depth + 1), basename(path));
  }
  try {
    return realpathSync.native(path);
  } catch (error) {
    const code = errorCode(error);
    if ((code !== "ENOENT" && code !== "ENOTDIR" && code !== "ELOOP") || !stats.isSymbolicLink()) return path;
  }
  // A dangling link: where it would point.
  const target = readlinkSync(path);
  const parent = resolveReal(dirname(path), depth + 1);
  return resolveReal(resolve(parent, target), depth + 1);
}

export function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

export class WorkspaceGuard {
  readonly root: string;
  private ignoreCache: { key: string; matcher: IgnoreFiles | undefined } | undefined;

  constructor(workspace: string) {
    this.root = resolveReal(resolve(workspace));
  }

  /** Expands `~`, resolves against the workspace, follows links. */
  resolve(requested: string): ResolvedPath {
    const trimmed = requested.trim();
    let expanded = trimmed;
    if (trimmed === "~") expanded = homedir();
    else if (trimmed.startsWith("~/")) expanded = join(homedir(), trimmed.slice(2));
    const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(this.root, expanded);
    const real = resolveReal(absolute);
    const inside = isWithin(this.root, real);
    const display = inside ? toPosix(relative(this.root, real)) || "." : real;
    return { requested, absolute, real, inside, display, ignored: this.isIgnored(absolute, real) };
  }

  /** Whether a path (given as absolute or lexical, and its real form) is hidden by the ignore file. */
  isIgnored(absolute: string, real: string = absolute): boolean {
    const matcher = this.loadIgnore();
    if (matcher === undefined) return false;
    for (const candidate of [absolute, real]) {
      if (!isWithin(this.root, candidate) || candidate === this.root) continue;
      const relativePath = toPosix(relative(this.root, candidate));
      if (matcher.ignores(relativePath)) return true;
      // A folder rule like `secrets/` must also hide the folder itself when named without a slash.
      if (isDirectory(candidate) && matcher.ignores(`${relativePath}/`)) return true;
    }
    return false;
  }

  /** Like isIgnored, for an entry found while walking, whose kind is known (no stat per entry). */
  isIgnoredEntry(absolute: string, folder: boolean): boolean {
    const matcher = this.loadIgnore();
    if (matcher === undefined || !isWithin(this.root, absolute) || absolute === this.root) return false;
    const relativePath = toPosix(relative(this.root, absolute));
    return matcher.ignores(relativePath) || (folder && matcher.ignores(`${relativePath}/`));
  }

  /** Relative display path for a file found while walking the workspace. */
  displayPath(absolute: string): string {
    return isWithin(this.root, absolute) ? toPosix(relative(this.root, absolute)) || "." : absolute;
  }

  /**
   * The same guard with the ignore file read once now: deciding one command
   * asks about dozens of words, and re-checking the ignore files' stamps for
   * each would cost more than the decision itself.
   */
  snapshot(): WorkspaceGuard {
    const matcher = this.loadIgnore();
    const frozen = Object.create(this) as WorkspaceGuard;
    frozen.loadIgnore = () => matcher;
    return frozen;
  }

  private loadIgnore(): IgnoreFiles | undefined {
    const stamps = ignoreFileNames.map((name) => {
      try {
        const stat = statSync(join(this.root, name), { throwIfNoEntry: false });
        return stat === undefined ? "-" : `${stat.mtimeMs}:${stat.size}`;
      } catch {
        return "-";
      }
    });
    const key = stamps.join("|");
    if (this.ignoreCache?.key === key) return this.ignoreCache.matcher;
    let matcher: IgnoreFiles | undefined;
    for (const name of ignoreFileNames) {
      let text: string;
      try {
        text = readFileSync(join(this.root, name), "utf8");
      } catch {
        continue;
      }
      // Each file on its own: a new .clineignore cannot un-ignore (`!secret.env`) what .cairnignore hides.
      matcher ??= new IgnoreFiles();
      matcher.add(ignore().add(text));
    }
    this.ignoreCache = { key, matcher };
    return matcher;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Several ignore files: a path is ignored when any of them ignores it. */
class IgnoreFiles {
  private readonly files: Ignore[] = [];

  add(file: Ignore): void {
    this.files.push(file);
  }

  ignores(path: string): boolean {
    return this.files.some((file) => file.ignores(path));
  }
}
