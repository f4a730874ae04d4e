/**
 * One network of loopback only, shared by the sandboxed commands of this cairn
 * that have no network (#31): a dev server started in the background listens on
 * 127.0.0.1 there, and a later command (`curl localhost:3000`, a test run)
 * reaches it, while nothing reaches past loopback. Without it each command has a
 * network namespace of its own (bubblewrap's `--unshare-net`) and a server is
 * alone with itself.
 *
 * A holder process (`unshare --user --map-current-user --net`, loopback brought
 * up with `ip`, then waiting on its stdin) keeps the namespaces; each command is
 * started through `nsenter` into them, and bubblewrap then leaves the network
 * out of its namespaces. The holder ends when this cairn does (its stdin closes,
 * even on kill -9). Where any of this cannot be had (no `unshare`, `nsenter` or
 * `ip`, user namespaces refused), commands keep a network each, as before.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readlinkSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { findProgram } from "./program-path.js";

/** How long the first command waits for the holder, once per cairn. */
const readyWithinMs = 3_000;

let holder: { process: ChildProcess; pid: number } | undefined;
let unavailable = false;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function namespaceOf(pid: number | "self", kind: "net" | "user"): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/${kind}`);
  } catch {
    return undefined;
  }
}

function startHolder(folder: string): { process: ChildProcess; pid: number } | undefined {
  const unshare = findProgram("unshare");
  const ip = findProgram("ip", { extra: ["/usr/sbin", "/sbin"] });
  if (unshare === undefined || ip === undefined || findProgram("nsenter") === undefined) return undefined;
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const ready = join(folder, `loopback-${process.pid}-${randomBytes(4).toString("hex")}`);
  const child = spawn(unshare, ["--user", "--map-current-user", "--net", "--keep-caps", "--", "/bin/sh", "-c", `"$1" link set lo up && : > "$2" && exec head -c 1`, "cairn-loopback", ip, ready], {
    stdio: ["pipe", "ignore", "ignore"],
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" },
  });
  child.on("error", () => undefined);
  const pid = child.pid;
  const deadline = Date.now() + readyWithinMs;
  while (pid !== undefined && !existsSync(ready) && child.exitCode === null && Date.now() < deadline) sleepSync(2);
  const made = pid !== undefined && existsSync(ready);
  rmSync(ready, { force: true });
  // Joined only when it is another network than cairn's own: a holder that never unshared would give away the host's.
  if (!made || child.exitCode !== null || namespaceOf(pid, "net") === undefined || namespaceOf(pid, "net") === namespaceOf("self", "net")) {
    child.kill("SIGKILL");
    return undefined;
  }
  child.unref();
  child.stdin?.on("error", () => undefined);
  (child.stdin as { unref?: () => void } | null)?.unref?.();
  return { process: child, pid };
}

/**
 * What a command is started through to join the shared loopback network (`nsenter … --`), or undefined
 * where there is none: then the command gets a network of its own. `folder`: where the holder says it is ready.
 */
export function sharedLoopbackPrefix(folder: string): string[] | undefined {
  if (unavailable) return undefined;
  if (holder !== undefined && holder.process.exitCode === null && holder.process.signalCode === null) return nsenterArguments(holder.pid);
  holder = startHolder(folder);
  if (holder === undefined) {
    unavailable = true;
    return undefined;
  }
  return nsenterArguments(holder.pid);
}

const nsenterArguments = (pid: number): string[] => ["nsenter", `--user=/proc/${pid}/ns/user`, `--net=/proc/${pid}/ns/net`, "--preserve-credentials", "--"];
