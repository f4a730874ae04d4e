/**
 * Runs one shell command in its own process group, streams its output,
 * and ends the whole group, and processes that left it (command-processes.ts),
 * when the command finishes, times out or is aborted (SIGTERM, then SIGKILL
 * after 500 ms), so children and grandchildren never outlive it.
 */
import type { CommandEnd } from "../../task/contracts/message-meta.js";
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { OutputBuffer } from "./output-buffer.js";
import { commandTokenVariable, endCommandProcesses, newCommandToken } from "./command-processes.js";

/** How a command ended: declared with the `command_output` meta that carries it (src/task/contracts/tool-meta.ts). */
export type { CommandEnd };

export interface CommandResult {
  end: CommandEnd;
  durationMs: number;
  /** Output for the model: complete, or head and tail when it was too long. */
  output: string;
  totalCharacters: number;
  /** File with the full output, when it was too long to keep in memory. */
  savedPath?: string;
}

export interface RunCommandOptions {
  command: string;
  cwd: string;
  shell: string;
  timeoutMs: number;
  signal: AbortSignal;
  outputFile: string;
  /** Called with the output so far, coalesced (at most every `updateIntervalMs`). */
  onOutput?: (preview: string) => void;
  updateIntervalMs?: number;
  headCharacters?: number;
  tailCharacters?: number;
  /** What to start instead of `shell -c command` (scrubbed environment, sandbox: src/security/process-launch.ts). */
  launch?: { file: string; args: string[]; env: NodeJS.ProcessEnv };
  /**
   * Leave processes the command started in the background running after it
   * finishes (the `commands.keepBackgroundProcesses` setting). By default they
   * are ended with it (#11 item 3). Timeouts and aborts end them regardless.
   */
  keepBackgroundProcesses?: boolean;
}

/** After the shell exits, background children may hold the pipes open; do not wait for them forever. */
const pipeDrainGraceMs = 1000;

export function runCommand(options: RunCommandOptions): { done: Promise<CommandResult>; stop(): Promise<void> } {
  const started = Date.now();
  const buffer = new OutputBuffer({
    headCharacters: options.headCharacters ?? 25_000,
    tailCharacters: options.tailCharacters ?? 25_000,
    filePath: options.outputFile,
  });
  let stopping: CommandEnd | undefined;
  let child: ReturnType<typeof spawn>;
  const token = newCommandToken();
  try {
    const launch = options.launch ?? { file: options.shell, args: ["-c", options.command], env: process.env };
    child = spawn(launch.file, launch.args, {
      cwd: options.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...launch.env, PAGER: "cat", GIT_PAGER: "cat", [commandTokenVariable]: token },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      done: Promise.resolve({ end: { kind: "failed_to_start", message }, durationMs: 0, output: "", totalCharacters: 0 }),
      stop: async () => {},
    };
  }
  const pid = child.pid;
  let stopPromise: Promise<void> | undefined;
  const stopWith = (end: CommandEnd): Promise<void> => {
    stopping ??= end;
    if (pid === undefined) return Promise.resolve();
    stopPromise ??= endCommandProcesses({ processGroup: pid, token });
    return stopPromise;
  };
  const timer = setTimeout(() => void stopWith({ kind: "timed_out", timeoutMs: options.timeoutMs }), options.timeoutMs);
  const onAbort = () => void stopWith({ kind: "aborted" });
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });

  let updateTimer: NodeJS.Timeout | undefined;
  const scheduleUpdate = () => {
    if (options.onOutput === undefined || updateTimer !== undefined) return;
    updateTimer = setTimeout(() => {
      updateTimer = undefined;
      options.onOutput?.(buffer.preview());
    }, options.updateIntervalMs ?? 100);
  };
  const streams = [child.stdout, child.stderr].filter((stream) => stream !== null);
  for (const stream of streams) {
    const decoder = new StringDecoder("utf8");
    stream.on("data", (chunk: Buffer) => {
      if (!buffer.append(decoder.write(chunk))) {
        // The output file is behind: hold the pipes so memory stays bounded.
        for (const other of streams) other.pause();
        buffer.onDrain(() => {
          for (const other of streams) other.resume();
        });
      }
      scheduleUpdate();
    });
    stream.on("end", () => buffer.append(decoder.end()));
  }

  const done = new Promise<CommandResult>((resolve) => {
    let exit: { code: number | null; signal: string | null } | undefined;
    let finished = false;
    const finish = async (startError?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (updateTimer !== undefined) clearTimeout(updateTimer);
      options.signal.removeEventListener("abort", onAbort);
      for (const stream of streams) stream.destroy();
      await buffer.close();
      const end: CommandEnd = startError !== undefined ? { kind: "failed_to_start", message: startError.message } : (stopping ?? { kind: "exited", exitCode: exit?.code ?? null, signal: exit?.signal ?? null });
      const result: CommandResult = { end, durationMs: Date.now() - started, output: buffer.preview(), totalCharacters: buffer.length };
      const saved = buffer.savedPath;
      if (saved !== undefined) result.savedPath = saved;
      if (stopPromise !== undefined) await stopPromise;
      resolve(result);
    };
    child.on("error", (error) => void finish(error));
    child.on("close", () => void finish());
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // The shell is done: what it left running in the background goes with it (#11 item 3).
      if (options.keepBackgroundProcesses !== true) stopPromise ??= endCommandProcesses({ processGroup: pid, token });
      setTimeout(() => void finish(), pipeDrainGraceMs).unref();
    });
  });
  return { done, stop: () => stopWith({ kind: "aborted" }) };
}
