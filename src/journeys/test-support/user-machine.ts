/**
 * A user's machine for a journey: a home folder of its own (`HOME`), with
 * every tool's files where that tool keeps them (`~/.claude`, `~/.claude.json`,
 * `~/.config/cairn`, `~/.cairn`), and a project under it. Nothing points cairn
 * anywhere else: no `CAIRN_HOME`, `XDG_CONFIG_HOME` or `CLAUDE_CONFIG_DIR`,
 * and no cairn config at all unless the journey writes one, so cairn runs the
 * way it does for a user who just installed it: with the sandbox on.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface UserMachine {
  /** The temporary folder everything is in; removed by `cleanup`. */
  root: string;
  home: string;
  /** The project the user works on (a git repository once `commitAll` ran). */
  workspace: string;
  /** `~/.claude`. */
  claudeDir: string;
  /** `~/.config/cairn`. */
  cairnConfigDir: string;
  /** `~/.cairn`. */
  dataDir: string;
  /** The environment cairn runs with, as the user's shell would give it. */
  env: NodeJS.ProcessEnv;
  /** For tmux, whose server has the test's environment: what to set, and what to unset. */
  terminal: { env: Record<string, string>; unset: string[] };
  /** Writes a file (JSON for anything but a string), making its folders; `executable` sets mode 755. */
  put(path: string, content: unknown, options?: { executable?: boolean }): Promise<string>;
  /** `git add -A && git commit` in the workspace. */
  commitAll(message: string): void;
  cleanup(): Promise<void>;
}

export async function makeUserMachine(options: { project: string }): Promise<UserMachine> {
  const root = await mkdtemp(join(tmpdir(), "cairn-journey-"));
  const home = join(root, "home");
  const workspace = join(home, "projects", options.project);
  await mkdir(workspace, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  const pointsElsewhere = (name: string): boolean =>
    name.startsWith("CAIRN_") || name.startsWith("CLAUDE_") || name.startsWith("XDG_") || name.endsWith("_API_KEY") || name.startsWith("GIT_") || name === "OPENAI_BASE_URL" || name === "ANTHROPIC_BASE_URL";
  const unset = Object.keys(env).filter(pointsElsewhere);
  for (const name of unset) delete env[name];
  env["HOME"] = home;
  env["NO_COLOR"] = "1";
  const put = async (path: string, content: unknown, putOptions: { executable?: boolean } = {}): Promise<string> => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
    if (putOptions.executable === true) await chmod(path, 0o755);
    return path;
  };
  const git = (...args: string[]): void => {
    execFileSync("git", ["-c", "user.name=Journey User", "-c", "user.email=user@example.com", "-c", "init.defaultBranch=main", ...args], { cwd: workspace, env, stdio: "ignore" });
  };
  return {
    root,
    home,
    workspace,
    claudeDir: join(home, ".claude"),
    cairnConfigDir: join(home, ".config", "cairn"),
    dataDir: join(home, ".cairn"),
    env,
    terminal: { env: { HOME: home, NO_COLOR: "1" }, unset },
    put,
    commitAll: (message) => {
      git("init", "-q");
      git("add", "-A");
      git("commit", "-q", "-m", message);
    },
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}
