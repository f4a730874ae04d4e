/**
 * The OS sandbox on bubblewrap: the workspace writable (or read-only), the
 * rest of the file system read-only, a private /tmp, no network unless asked,
 * ignored files, credentials folders and protected paths masked, and every
 * process of the command in a PID namespace that ends with it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, statSync } from "node:fs";
import type { SandboxMode } from "./security-decision.js";

export type { SandboxMode } from "./security-decision.js";
export const sandboxModes: readonly SandboxMode[] = ["workspace-write", "read-only", "off"];

export interface SandboxSpec {
  mode: Exclude<SandboxMode, "off">;
  workspace: string;
  network: boolean;
  /** Files and folders whose content must not be seen (ignored files, credentials): an empty file or folder goes over them. */
  masked: string[];
  /** Paths that stay readable but not writable (protected paths inside a writable workspace). */
  readOnly: string[];
  /**
   * Protected folders that do not exist yet: an empty read-only folder is put
   * there so a command cannot create them (bubblewrap leaves the empty folder
   * behind as its mount point).
   */
  blockedFolders?: string[];
  /** Paths that must be writable though outside the workspace (rare: the command's own output folder). */
  writable?: string[];
}

export class SandboxUnavailableError extends Error {}

let probe: { ok: true } | { ok: false; message: string } | undefined;

/** Whether bubblewrap exists and may create namespaces here (checked once per process). */
export function checkBubblewrap(): { ok: true } | { ok: false; message: string } {
  if (probe !== undefined) return probe;
  const result = spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid", "--die-with-parent", "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 10_000,
  });
  if (result.error !== undefined) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    probe = {
      ok: false,
      message: missing
        ? "the sandbox needs bubblewrap (bwrap), which is not installed: install the bubblewrap package (Debian/Ubuntu: apt-get install bubblewrap), or run with --sandbox off"
        : `bubblewrap could not start: ${result.error.message}; run with --sandbox off`,
    };
  } else if (result.status !== 0) {
    const detail = result.stderr.toString("utf8").trim().split("\n")[0] ?? "";
    probe = {
      ok: false,
      message: `bubblewrap is installed but cannot create a sandbox here (${detail || `exit ${String(result.status)}`}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone). Run with --sandbox off`,
    };
  } else probe = { ok: true };
  return probe;
}

function kind(path: string): "file" | "folder" | "link" | undefined {
  try {
    if (lstatSync(path).isSymbolicLink()) return "link";
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return undefined;
  }
}

/** The top folders under /tmp that the given words name (absolute paths that exist). */
function temporaryRoots(words: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const word of words) {
    const top = /^\/tmp\/([^/]+)/.exec(word)?.[1];
    if (top !== undefined && existsSync(`/tmp/${top}`)) roots.add(`/tmp/${top}`);
  }
  return [...roots];
}

/** The bwrap arguments that run `program args` in the sandbox. */
export function bubblewrapArguments(spec: SandboxSpec, cwd: string, program: string, args: string[]): string[] {
  const result = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // The private /tmp must not hide what is run: a program, script or folder under /tmp
  // (an MCP server installed in a checkout there) stays visible, read-only.
  for (const root of temporaryRoots([program, ...args, cwd])) result.push("--ro-bind", root, root);
  result.push(spec.mode === "workspace-write" ? "--bind" : "--ro-bind", spec.workspace, spec.workspace);
  for (const path of spec.writable ?? []) if (existsSync(path)) result.push("--bind", path, path);
  for (const path of spec.readOnly) {
    if (kind(path) === "file" || kind(path) === "folder") result.push("--ro-bind", path, path);
  }
  for (const path of spec.blockedFolders ?? []) {
    if (kind(path) === undefined) result.push("--tmpfs", path, "--remount-ro", path);
  }
  for (const path of spec.masked) {
    const found = kind(path);
    if (found === "folder") result.push("--tmpfs", path, "--remount-ro", path);
    else if (found === "file") result.push("--ro-bind", "/dev/null", path);
  }
  if (!spec.network) result.push("--unshare-net");
  // A PID namespace: when the command ends, everything it started in the background ends with it.
  result.push("--unshare-pid", "--die-with-parent", "--chdir", cwd, "--", program, ...args);
  return result;
}
