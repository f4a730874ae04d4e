/**
 * The OS sandbox on bubblewrap: the workspace writable (or read-only), the
 * rest of the file system read-only, private /tmp, /var/tmp and /run, no
 * network unless given, its own PID, IPC and UTS namespaces, no capabilities
 * (root included, so no mask can be unmounted), and:
 * - protected paths read-only, and their folders made mount points (a mount
 *   point can be neither renamed nor removed, so `mv .git x && cp -r x .git`
 *   cannot bring back writable hooks); a missing protected path gets an empty
 *   read-only folder for the process's life, so it cannot be created;
 * - hidden paths (ignored files, credentials, cairn's data and config
 *   folders, host sockets) empty;
 * - programs a deny rule names replaced by a stub that refuses, so a script or
 *   a renamed copy cannot run them either.
 */
import { existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import { dirname, sep } from "node:path";
import type { SandboxMode } from "./security-decision.js";
import { namespaceArguments } from "./sandbox-probe.js";

export type { SandboxMode } from "./security-decision.js";
export { checkBubblewrap, startBubblewrapProbe } from "./sandbox-probe.js";
export const sandboxModes: readonly SandboxMode[] = ["workspace-write", "read-only", "off"];

export interface SandboxPlan {
  mode: Exclude<SandboxMode, "off">;
  workspace: string;
  network: boolean;
  /** Without the network: started inside the loopback network the commands of this cairn share (shared-loopback.ts), not one of its own. */
  sharedLoopback?: boolean;
  /** Folders inside the workspace bound onto themselves (writable) so they cannot be renamed: the ancestors of protected paths. */
  anchored: string[];
  /** Existing protected paths, read-only. */
  readOnly: string[];
  /** Missing protected paths: empty folders created for the process's life (placeholders.ts), read-only. */
  placeholders: string[];
  /** Paths whose content must not be seen: folders become empty, files read as empty. */
  hidden: string[];
  /** Folders rebuilt from their visible entries (an empty read-only folder with them bound back): what else was there is hidden. */
  rebuilt: Array<{ folder: string; visible: string[] }>;
  /** Paths that stay readable inside hidden folders or the private /tmp (the session's command outputs, the user's own hook scripts). */
  readable: string[];
  /** Paths outside the workspace that stay writable (rare). */
  writable: string[];
  /** Programs replaced by a stub that refuses (a whole-program deny rule names them). */
  stubs: Array<{ path: string; stub: string }>;
  /** An empty read-only file bound over hidden files. */
  emptyFile: string;
  /** This bubblewrap supports `--disable-userns` (no user namespaces inside the sandbox). */
  disableUserns: boolean;
}

export class SandboxUnavailableError extends Error {}

function kind(path: string): "file" | "folder" | "link" | undefined {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return "link";
    return stats.isDirectory() ? "folder" : "file";
  } catch {
    return undefined;
  }
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The top folders under /tmp that the given words name (absolute paths that exist): what is run stays visible. */
function temporaryRoots(words: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const word of words) {
    const top = /^\/tmp\/([^/]+)/.exec(word)?.[1];
    if (top !== undefined && existsSync(`/tmp/${top}`)) roots.add(`/tmp/${top}`);
  }
  return [...roots];
}

/** System folders replaced by an empty private one: /tmp, /var/tmp and /run (host sockets, agent sockets, the runtime folder). */
function privateFolders(): string[] {
  const result: string[] = [];
  for (const folder of ["/tmp", "/var/tmp", "/run"]) {
    let real: string;
    try {
      real = realpathSync(folder);
    } catch {
      continue;
    }
    if (!result.includes(real)) result.push(real);
  }
  return result;
}

/** Where /etc/resolv.conf really is when it points into a private folder (systemd-resolved): bound back in when the network is given. */
function resolverFile(hiddenRoots: string[]): string | undefined {
  try {
    const real = realpathSync("/etc/resolv.conf");
    return hiddenRoots.some((root) => within(root, real)) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The bwrap arguments that run `program args` under `plan`. */
export function bubblewrapArguments(plan: SandboxPlan, cwd: string, program: string, args: string[]): string[] {
  return [...bubblewrapOptions(plan, cwd, [program, ...args]), "--", program, ...args];
}

/** The bwrap options (everything before `--`) for `plan`; `command` only tells which folders under /tmp must stay visible. */
export function bubblewrapOptions(plan: SandboxPlan, cwd: string, command: readonly string[]): string[] {
  const result = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  const privates = privateFolders();
  for (const folder of privates) result.push("--tmpfs", folder);
  if (plan.network) {
    const resolver = resolverFile(privates);
    if (resolver !== undefined) result.push("--ro-bind", resolver, resolver);
  }
  // The private /tmp must not hide what is run: a program, script or folder under /tmp stays visible, read-only.
  for (const root of temporaryRoots([...command, cwd])) if (!within(root, plan.workspace) && !within(plan.workspace, root)) result.push("--ro-bind", root, root);
  result.push(plan.mode === "workspace-write" ? "--bind" : "--ro-bind", plan.workspace, plan.workspace);
  // Rebuilt first: the protected paths inside a rebuilt folder are made read-only again below.
  for (const { folder, visible } of plan.rebuilt) {
    if (kind(folder) !== "folder") continue;
    result.push("--tmpfs", folder);
    for (const path of visible) if (kind(path) !== undefined) result.push(plan.mode === "workspace-write" ? "--bind" : "--ro-bind", path, path);
    result.push("--remount-ro", folder);
  }
  for (const path of plan.writable) if (existsSync(path)) result.push("--bind", path, path);
  if (plan.mode === "workspace-write") {
    for (const path of [...plan.anchored].sort((left, right) => left.length - right.length)) if (kind(path) === "folder") result.push("--bind", path, path);
  }
  // A link is bound through: its target is what stays read-only (the link itself is checked after the process, sandbox-policy.ts).
  for (const path of plan.readOnly) if (existsSync(path)) result.push("--ro-bind", path, path);
  for (const path of plan.placeholders) if (kind(path) === "folder") result.push("--ro-bind", path, path);
  const emptied: string[] = [];
  for (const path of plan.hidden) {
    const found = kind(path);
    if (found === "folder") {
      result.push("--tmpfs", path);
      emptied.push(path);
    } else if (found !== undefined) result.push("--ro-bind", plan.emptyFile, path);
  }
  // What stays readable inside an emptied folder is bound in before the folder is made read-only.
  for (const path of plan.readable) {
    const found = kind(path);
    if (found === "folder" || found === "file") result.push("--dir", dirname(path), "--ro-bind", path, path);
  }
  for (const path of emptied) result.push("--remount-ro", path);
  for (const { path, stub } of plan.stubs) if (existsSync(path) && statSync(path).isFile()) result.push("--ro-bind", stub, path);
  if (!plan.network && plan.sharedLoopback !== true) result.push("--unshare-net");
  result.push(...namespaceArguments);
  if (plan.disableUserns) result.push("--unshare-user", "--disable-userns");
  result.push("--chdir", cwd);
  return result;
}
