/**
 * Whether bubblewrap can build cairn's sandbox here, asked once per process
 * with the namespaces the sandbox uses, and which optional hardening this
 * bubblewrap supports (`--disable-userns` came with 0.8).
 *
 * Each question starts a sandbox (about 30 ms: a network namespace is slow to
 * make), and a task's start needs the answer (issue 33: wall-clock to the first
 * request). `startBubblewrapProbe` asks both at once without blocking, and
 * `bin/cairn`'s launcher calls it before it loads the CLI bundle for commands
 * that start a task, so the answer is usually in by the time settings need it.
 * The answer is kept on `globalThis`: the launcher and the bundle each have
 * their own copy of this module.
 */

/** Loaded when a probe runs: the launcher imports this module for every command, and `--help` need not load child_process. */
const childProcess = () => process.getBuiltinModule("node:child_process");

export type BubblewrapProbe = { ok: true; disableUserns: boolean } | { ok: false; message: string };

/** The namespaces every sandbox gets; the probe starts the same ones. */
export const namespaceArguments = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];

interface ProbeRun {
  error?: Error;
  status: number | null;
  stderr: string;
}

interface ProbeState {
  /** The answer, once there is one. */
  result?: BubblewrapProbe;
  /** The answer being asked without blocking. */
  pending?: Promise<BubblewrapProbe>;
}

const stateKey = Symbol.for("cairn.bubblewrap-probe");
const state = ((globalThis as Record<symbol, unknown>)[stateKey] ??= {}) as ProbeState;

const probeArguments = (extra: string[]): string[] => ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", ...namespaceArguments, ...extra, "true"];
const timeoutMs = 10_000;

function runSync(extra: string[]): ProbeRun {
  const result = childProcess().spawnSync("bwrap", probeArguments(extra), { stdio: ["ignore", "ignore", "pipe"], timeout: timeoutMs });
  return { ...(result.error === undefined ? {} : { error: result.error }), status: result.status, stderr: result.stderr?.toString() ?? "" };
}

function runAsync(extra: string[]): Promise<ProbeRun> {
  return new Promise((resolve) => {
    const child = childProcess().spawn("bwrap", probeArguments(extra), { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let failed: Error | undefined;
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.on("error", (error) => (failed = error));
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ ...(failed === undefined ? {} : { error: failed }), status, stderr });
    });
  });
}

function answer(sandbox: ProbeRun, withoutUserns: () => ProbeRun | undefined): BubblewrapProbe {
  if (sandbox.error !== undefined) {
    const missing = (sandbox.error as NodeJS.ErrnoException).code === "ENOENT";
    return {
      ok: false,
      message: missing
        ? "the sandbox needs bubblewrap (bwrap), which is not installed: install the bubblewrap package (Debian/Ubuntu: apt-get install bubblewrap)"
        : `bubblewrap could not start: ${sandbox.error.message}`,
    };
  }
  if (sandbox.status !== 0) {
    const detail = sandbox.stderr.trim().split("\n")[0] ?? "";
    return {
      ok: false,
      message: `bubblewrap is installed but cannot create a sandbox here (${detail || `exit ${String(sandbox.status)}`}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or an AppArmor restriction)`,
    };
  }
  return { ok: true, disableUserns: withoutUserns()?.status === 0 };
}

/** Asks bubblewrap without blocking, both questions at once; every later call (and `checkBubblewrap`) gets the same answer. */
export function startBubblewrapProbe(): Promise<BubblewrapProbe> {
  if (state.result !== undefined) return Promise.resolve(state.result);
  state.pending ??= Promise.all([runAsync([]), runAsync(["--unshare-user", "--disable-userns"])]).then(([sandbox, withoutUserns]) => {
    state.result ??= answer(sandbox, () => withoutUserns);
    return state.result;
  });
  return state.pending;
}

/** The answer, blocking while it is asked if nobody asked before (`startBubblewrapProbe` is the way that does not block). */
export function checkBubblewrap(): BubblewrapProbe {
  state.result ??= answer(runSync([]), () => runSync(["--unshare-user", "--disable-userns"]));
  return state.result;
}
