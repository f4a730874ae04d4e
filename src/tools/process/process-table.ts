/**
 * Background processes (issue #31): commands started with `background: true`
 * keep running while the task goes on. Each runs as any command does (its own
 * process group, the command token of command-processes.ts, the sandbox's
 * launch), with its output written straight to a file, so it never waits on
 * cairn to read it. The table gives them short ids (`p1`, `p2`, ...), reads
 * their new output or last lines, and ends them: one (`stop_process`, `/kill`),
 * a task's, or all of them (the end of a task, cairn's exit).
 *
 * Whoever owns a table ends its processes: the session when it made the
 * table, the terminal UI (which keeps one across tasks), and, as a last
 * resort, cairn's own exit (a synchronous SIGKILL of every group still running).
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { commandTokenVariable, endCommandProcesses, newCommandToken, processesWithTokenSync } from "../command/command-processes.js";

export type ProcessState = "running" | "exited" | "stopped";

/** What the model, the panel and the result see of one process. */
export interface BackgroundProcessInfo {
  id: string;
  command: string;
  pid: number | undefined;
  taskId: string;
  startedAt: number;
  state: ProcessState;
  /** Exit code once it exited by itself (null when a signal ended it). */
  exitCode: number | null;
  endedAt?: number;
  /** The last line of output so far ("" before any). */
  lastLine: string;
  logPath: string;
}

interface Entry {
  info: Omit<BackgroundProcessInfo, "lastLine">;
  token: string;
  /** Bytes of the log the model has read. */
  readOffset: number;
  exited: Promise<void>;
  /** Called once when the process has ended (frees the sandbox's placeholders). */
  onEnd: () => void;
  lastLine: { size: number; line: string };
}

export interface StartOptions {
  command: string;
  cwd: string;
  /** What to start (the scrubbed environment and sandbox of src/security/process-launch.ts). */
  launch: { file: string; args: string[]; env: NodeJS.ProcessEnv };
  /** Where its log goes, as `<id>.log` (an id whose log is already there, from an earlier run of the task, is skipped). */
  logFolder: string;
  taskId: string;
  /** Leave what it starts running when its own shell exits (the `keepBackgroundProcesses` setting). */
  keepChildren?: boolean;
  onEnd?: () => void;
}

/** Most characters one read returns: more is cut to its end, with a note. */
export const maxReadCharacters = 16_000;
const tailBytes = 64 * 1024;

export class ProcessTable {
  private readonly entries = new Map<string, Entry>();
  private next = 1;
  private readonly listeners = new Set<() => void>();
  private readonly onExit = (): void => this.killAllNow();
  /** cairn's exit is watched from the first start on (a session that never starts one adds no listener). */
  private watchingExit = false;

  start(options: StartOptions): BackgroundProcessInfo {
    if (!this.watchingExit) {
      this.watchingExit = true;
      process.on("exit", this.onExit);
    }
    // A resumed task's earlier runs left their logs: their ids are not given again (the model may still name them).
    let id = `p${this.next++}`;
    while (existsSync(join(options.logFolder, `${id}.log`))) id = `p${this.next++}`;
    const logPath = join(options.logFolder, `${id}.log`);
    mkdirSync(options.logFolder, { recursive: true });
    const fd = openSync(logPath, "w");
    const token = newCommandToken();
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.launch.file, options.launch.args, {
        cwd: options.cwd,
        detached: true,
        stdio: ["ignore", fd, fd],
        env: { ...options.launch.env, PAGER: "cat", GIT_PAGER: "cat", [commandTokenVariable]: token },
      });
    } finally {
      closeSync(fd);
    }
    child.unref();
    const info: Entry["info"] = { id, command: options.command, pid: child.pid, taskId: options.taskId, startedAt: Date.now(), state: "running", exitCode: null, logPath };
    let ended = false;
    const entry: Entry = {
      info,
      token,
      readOffset: 0,
      exited: new Promise<void>((resolve) => {
        const finish = (code: number | null): void => {
          if (ended) return;
          ended = true;
          if (info.state === "running") {
            info.state = "exited";
            info.exitCode = code;
          }
          info.endedAt = Date.now();
          // Its shell is done: what it left behind goes with it, as for any command (#11 item 3).
          const leftovers = options.keepChildren === true ? Promise.resolve() : endCommandProcesses({ processGroup: child.pid, token });
          void leftovers.finally(() => {
            entry.onEnd();
            this.changed();
            resolve();
          });
        };
        child.on("exit", (code) => finish(code));
        child.on("error", (error) => {
          info.state = "exited";
          info.exitCode = null;
          entry.lastLine = { size: -1, line: `could not start: ${error.message}` };
          finish(null);
        });
      }),
      onEnd: once(options.onEnd ?? (() => {})),
      lastLine: { size: 0, line: "" },
    };
    this.entries.set(id, entry);
    this.changed();
    return this.describe(entry);
  }

  /** Every process of this table (of `taskId` only, when given), oldest first. */
  list(taskId?: string): BackgroundProcessInfo[] {
    return [...this.entries.values()].filter((entry) => taskId === undefined || entry.info.taskId === taskId).map((entry) => this.describe(entry));
  }

  running(taskId?: string): BackgroundProcessInfo[] {
    return this.list(taskId).filter((process) => process.state === "running");
  }

  get(id: string): BackgroundProcessInfo | undefined {
    const entry = this.entries.get(normalId(id));
    return entry === undefined ? undefined : this.describe(entry);
  }

  /** Bytes written to its log so far. */
  logSize(id: string): number {
    const entry = this.entries.get(normalId(id));
    return entry === undefined ? 0 : fileSize(entry.info.logPath);
  }

  /** The output written since the last read (at most `maxReadCharacters`, its end), and marks it read. */
  readNew(id: string): { text: string; omitted: number } | undefined {
    const entry = this.entries.get(normalId(id));
    if (entry === undefined) return undefined;
    const size = fileSize(entry.info.logPath);
    const from = Math.max(entry.readOffset, size - maxReadCharacters * 4);
    const text = readRange(entry.info.logPath, from, size);
    const omittedBytes = from - entry.readOffset;
    entry.readOffset = size;
    const cut = text.length > maxReadCharacters ? text.length - maxReadCharacters : 0;
    return { text: text.slice(cut), omitted: omittedBytes + cut };
  }

  /** The last `lines` lines of its output (marks everything read). */
  readLast(id: string, lines: number): string | undefined {
    const entry = this.entries.get(normalId(id));
    if (entry === undefined) return undefined;
    const size = fileSize(entry.info.logPath);
    entry.readOffset = size;
    const text = readRange(entry.info.logPath, Math.max(0, size - tailBytes), size);
    const all = text.replace(/\n$/, "").split("\n");
    return all.slice(-lines).join("\n").slice(-maxReadCharacters);
  }

  /** Ends the process, its group and whatever carries its token; resolves once it is gone. */
  async stop(id: string): Promise<BackgroundProcessInfo | undefined> {
    const entry = this.entries.get(normalId(id));
    if (entry === undefined) return undefined;
    if (entry.info.state === "running") {
      entry.info.state = "stopped";
      await endCommandProcesses({ processGroup: entry.info.pid, token: entry.token });
      await Promise.race([entry.exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      entry.info.endedAt ??= Date.now();
      this.changed();
    }
    return this.describe(entry);
  }

  /** Ends every running process (of `taskId` only, when given); returns those it ended. */
  async stopAll(taskId?: string): Promise<BackgroundProcessInfo[]> {
    const running = this.running(taskId);
    return (await Promise.all(running.map((process) => this.stop(process.id)))).filter((process) => process !== undefined);
  }

  /** Forgets ended processes (of `taskId`): the panel and the environment details no longer list them. */
  forgetEnded(taskId?: string): void {
    for (const [id, entry] of this.entries) if (entry.info.state !== "running" && (taskId === undefined || entry.info.taskId === taskId)) this.entries.delete(id);
  }

  /** Called when a process starts or ends. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends everything and stops watching cairn's exit. */
  async dispose(): Promise<BackgroundProcessInfo[]> {
    const ended = await this.stopAll();
    process.off("exit", this.onExit);
    this.watchingExit = false;
    return ended;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private describe(entry: Entry): BackgroundProcessInfo {
    return { ...entry.info, lastLine: this.lastLine(entry) };
  }

  /** The last non-empty line, read again only when the log grew. */
  private lastLine(entry: Entry): string {
    if (entry.lastLine.size < 0) return entry.lastLine.line;
    const size = fileSize(entry.info.logPath);
    if (size !== entry.lastLine.size) {
      const text = readRange(entry.info.logPath, Math.max(0, size - 4096), size);
      const line =
        text
          .split(/\r?\n|\r/)
          .filter((candidate) => candidate.trim() !== "")
          .pop() ?? "";
      entry.lastLine = { size, line: line.trim().slice(0, 500) };
    }
    return entry.lastLine.line;
  }

  /** cairn is exiting: nothing may outlive it (no time for a grace period). */
  private killAllNow(): void {
    for (const entry of this.entries.values()) {
      if (entry.info.state !== "running") continue;
      const targets = [...(entry.info.pid === undefined ? [] : [-entry.info.pid]), ...processesWithTokenSync(entry.token)];
      for (const target of targets) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  }
}

/** `p1`, `P1` and `1` name the same process. */
function normalId(id: string): string {
  const trimmed = id.trim().toLowerCase();
  return /^\d+$/.test(trimmed) ? `p${trimmed}` : trimmed;
}

function once(callback: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    callback();
  };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function readRange(path: string, from: number, to: number): string {
  if (to <= from) return "";
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return "";
  }
  try {
    const buffer = Buffer.alloc(to - from);
    const read = readSync(fd, buffer, 0, buffer.length, from);
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
