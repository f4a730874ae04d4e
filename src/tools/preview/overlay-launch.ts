/**
 * Command preview (#30): the sandboxed command runs against a copy-on-write
 * view of the workspace. In a user and mount namespace of its own (`unshare`),
 * the workspace is bound aside (the lower layer) and an overlayfs is mounted on
 * the workspace's own path, so every path the sandbox names (protected paths,
 * hidden files, the workspace itself) resolves into the view, and every write
 * lands in the upper layer, a private folder under /tmp. After the command,
 * the same shell lists, for every folder the command touched (the upper
 * layer's folders), its entries in the view and in the lower layer: what the
 * command created and deleted, whatever overlayfs recorded (whiteouts, opaque
 * folders). Nothing is written to the workspace.
 *
 * bubblewrap 0.8 (Debian's) has no overlay options; the kernel's overlayfs in
 * a user namespace (Linux 5.11 and later, with `userxattr`) does it. Where the
 * kernel refuses it, a copy of the workspace (`cp -a --reflink=auto`: shared
 * blocks where the file system can) is bound over the workspace instead.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Launch } from "../../security/process-launch.js";

export interface PreviewFolders {
  root: string;
  /** The workspace as it was (a bind of it, made before the overlay). */
  lower: string;
  upper: string;
  work: string;
  /** `%y %p` entries (NUL-separated) of the touched folders, in the view and in the lower layer. */
  mergedList: string;
  lowerList: string;
}

/** Exit status of the wrapper when the overlay cannot be mounted. */
export const overlayUnavailableStatus = 125;
/** Exit status of the wrapper when the workspace cannot be copied (the fallback). */
export const copyFailedStatus = 124;

/** How the view is made: an overlayfs, or (where the kernel does not allow one in a user namespace) a copy of the workspace bound over it. */
export type ViewMode = "overlay" | "copy";

const views: Record<ViewMode, string> = {
  overlay:
    'mount --bind "$ws" "$lower" && mount -t overlay overlay -o "userxattr,lowerdir=$lower,upperdir=$upper,workdir=$work" "$ws" || { echo "cairn: the preview needs overlayfs in a user namespace, which this system does not allow" >&2; exit 125; }',
  // The copy stands for the upper layer: every folder counts as touched, and every file is compared.
  copy: 'mount --bind "$ws" "$lower" && cp -a --reflink=auto "$ws/." "$upper/" && mount --bind "$upper" "$ws" || { echo "cairn: the preview could not copy the workspace" >&2; exit 124; }',
};

const script = (mode: ViewMode): string =>
  [
    'ws="$1"; lower="$2"; upper="$3"; work="$4"; merged_list="$5"; lower_list="$6"; shift 6',
    views[mode],
    '"$@"; status=$?',
    'list() { (cd "$upper" && find . -type d -print0) | xargs -0 -r sh -c \'cd "$0" && for d; do find "$d" -mindepth 1 -maxdepth 1 -printf "%y %p\\0"; done\' "$1" > "$2"; }',
    'list "$ws" "$merged_list"; list "$lower" "$lower_list"',
    "exit $status",
  ].join("\n");

/** A private folder for one preview's layers. */
export function previewFolders(): PreviewFolders {
  const root = mkdtempSync(join(tmpdir(), "cairn-preview-"));
  const folders = { root, lower: join(root, "lower"), upper: join(root, "upper"), work: join(root, "work"), mergedList: join(root, "merged.list"), lowerList: join(root, "lower.list") };
  for (const folder of [folders.lower, folders.upper, folders.work]) mkdirSync(folder, { mode: 0o700 });
  return folders;
}

/** Why the workspace's path cannot be a mount option, or undefined. */
export function unmountablePath(workspace: string): string | undefined {
  return /[,:\\]/.test(workspace) ? `the workspace's path (${workspace}) has a comma, colon or backslash, which overlayfs options cannot take` : undefined;
}

/** The sandbox's launch, run over a copy-on-write view of `workspace` (an overlay, or a copy). */
export function overlayLaunch(launch: Launch, workspace: string, folders: PreviewFolders, mode: ViewMode = "overlay"): Launch {
  return {
    ...launch,
    file: "unshare",
    args: [
      "--user",
      "--map-root-user",
      "--mount",
      "/bin/sh",
      "-c",
      script(mode),
      "cairn-preview",
      workspace,
      folders.lower,
      folders.upper,
      folders.work,
      folders.mergedList,
      folders.lowerList,
      launch.file,
      ...launch.args,
    ],
  };
}
