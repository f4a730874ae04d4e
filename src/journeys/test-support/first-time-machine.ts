/**
 * A machine as a first-time user has it: an ordinary user (not root: the tests
 * run as `nobody` when they run as root, so that file permissions count), a
 * HOME that is an empty folder (no cairn config, no ~/.gitconfig, no Claude
 * Code settings), no git identity, no bubblewrap on PATH, and nothing of the
 * test runner's environment (programs start from `env -i`). Everything lives
 * under one temporary root.
 */
import { spawnSync } from "node:child_process";
import type { SpawnSyncReturns } from "node:child_process";
import { chmod, chown, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { pathWithoutBubblewrap } from "../../test-support/path-without-bubblewrap.js";

const nobody = 65534;
const asRoot = process.getuid?.() === 0;

/**
 * Why programs cannot run as an ordinary user here, if so: this process is
 * root without setpriv (util-linux), or `checkout` (cairn's own, which the user
 * runs) is in a folder only root may enter (`mktemp -d` makes one): no
 * first-time user has such a checkout.
 */
export function ordinaryUserProblem(checkout: string): string | undefined {
  if (!asRoot) return undefined;
  if (spawnSync("setpriv", ["--version"], { stdio: "ignore" }).status !== 0) return "the tests run as root without setpriv (util-linux), so file permissions would not count";
  const readable = spawnSync("setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", "test", "-r", join(checkout, "package.json")], { stdio: "ignore" }).status === 0;
  return readable ? undefined : `${checkout} is not readable by an ordinary user (a parent folder is private); clone cairn where other users can read it`;
}

export interface FirstTimeMachine {
  home: string;
  /** The user's environment, complete (the program gets nothing else). */
  env: Record<string, string>;
  /** The argv that runs `program` as the user with exactly `env` and `extra` (tmux would pass its own environment on). */
  command(program: readonly string[], extra?: Record<string, string>): string[];
  /** Runs `program` as the user to its end. */
  run(program: readonly string[], cwd: string): SpawnSyncReturns<string>;
  /** A folder the user owns. */
  folder(path: string): Promise<string>;
}

export async function firstTimeMachine(root: string): Promise<FirstTimeMachine> {
  // The user must reach its folders under the root (mkdtemp makes it private to its owner).
  if (asRoot) await chmod(root, 0o755);
  const folder = async (path: string): Promise<string> => {
    await mkdir(path, { recursive: true });
    if (asRoot) await chown(path, nobody, nobody);
    return path;
  };
  const home = await folder(join(root, "home"));
  const env: Record<string, string> = {
    HOME: home,
    PATH: await pathWithoutBubblewrap(join(root, "bin")),
    TERM: "tmux-256color",
    LANG: "C.UTF-8",
    TMPDIR: await folder(join(root, "tmp")),
    // No system-wide git config either: the machine's own could name a user.
    GIT_CONFIG_NOSYSTEM: "1",
    // npm would ask the registry whether a newer npm exists: tests talk only to loopback.
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
  };
  const asUser = asRoot ? ["setpriv", `--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups"] : [];
  const command = (program: readonly string[], extra: Record<string, string> = {}): string[] => [...asUser, "env", "-i", ...Object.entries({ ...env, ...extra }).map(([name, value]) => `${name}=${value}`), ...program];
  return {
    home,
    env,
    command,
    run: (program, cwd) => {
      const [first, ...rest] = command(program);
      return spawnSync(first!, rest, { cwd, encoding: "utf8" });
    },
    folder,
  };
}
