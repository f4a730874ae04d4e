/**
 * Whether bubblewrap can build cairn's sandbox here, asked once per process
 * with the namespaces the sandbox uses, and which optional hardening this
 * bubblewrap supports (`--disable-userns` came with 0.8).
 */
import { spawnSync } from "node:child_process";

export type BubblewrapProbe = { ok: true; disableUserns: boolean } | { ok: false; message: string };

/** The namespaces every sandbox gets; the probe starts the same ones. */
export const namespaceArguments = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];

let probe: BubblewrapProbe | undefined;

function run(extra: string[]): ReturnType<typeof spawnSync> {
  return spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", ...namespaceArguments, ...extra, "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 10_000,
  });
}

export function checkBubblewrap(): BubblewrapProbe {
  if (probe !== undefined) return probe;
  const result = run([]);
  if (result.error !== undefined) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    probe = {
      ok: false,
      message: missing ? "the sandbox needs bubblewrap (bwrap), which is not installed: install the bubblewrap package (Debian/Ubuntu: apt-get install bubblewrap)" : `bubblewrap could not start: ${result.error.message}`,
    };
    return probe;
  }
  if (result.status !== 0) {
    const detail = (result.stderr?.toString() ?? "").trim().split("\n")[0] ?? "";
    probe = {
      ok: false,
      message: `bubblewrap is installed but cannot create a sandbox here (${detail || `exit ${String(result.status)}`}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or an AppArmor restriction)`,
    };
    return probe;
  }
  probe = { ok: true, disableUserns: run(["--unshare-user", "--disable-userns"]).status === 0 };
  return probe;
}
