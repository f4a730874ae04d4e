/**
 * File reads, writes and commands through the editor (ACP `fs/*` and
 * `terminal/*`) when the client offers them: reads see unsaved buffers, edits
 * land in the editor, commands show in its terminal. Whatever the client does
 * not offer stays local. The tools' path checks and approvals run before any
 * of this, exactly as for local operations.
 */
import { existsSync } from "node:fs";
import type { AgentContext, TerminalHandle } from "@agentclientprotocol/sdk";
import type { CommandEnd, CommandResult, RunCommandOptions } from "../tools/command/run-command.js";
import { decodeText } from "../tools/file-io.js";
import type { RunningCommand, WorkspaceOperations } from "../tools/operations.js";

export interface ClientOffers {
  readTextFile: boolean;
  writeTextFile: boolean;
  /** The client runs terminals and cairn's sandbox is off (a sandboxed command must run locally). */
  terminal: boolean;
}

/** What the editor keeps of a command's output; cairn shows the model its head and tail. */
const outputByteLimit = 1_000_000;
const headCharacters = 25_000;
const tailCharacters = 25_000;

function notFound(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT" });
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function clientOperations(options: {
  client: AgentContext;
  sessionId: string;
  offers: ClientOffers;
  local: WorkspaceOperations;
  /** The command now running shows in this client terminal. */
  onTerminal: (terminalId: string) => void;
}): WorkspaceOperations {
  const { client, sessionId, offers, local } = options;
  return {
    async readFile(path) {
      if (!offers.readTextFile) return local.readFile(path);
      try {
        const response = await client.request("fs/read_text_file", { sessionId, path });
        return Buffer.from(response.content, "utf8");
      } catch (error) {
        // The tools tell "missing" from "unreadable" by the error code, as with local files.
        if (!existsSync(path)) throw notFound(path);
        throw new Error(`the editor could not read ${path}: ${message(error)}`, { cause: error });
      }
    },
    async writeFile(path, content) {
      if (!offers.writeTextFile) return local.writeFile(path, content);
      const created = !existsSync(path);
      await client.request("fs/write_text_file", { sessionId, path, content: decodeText(content).text });
      return { created };
    },
    runCommand(commandOptions) {
      if (!offers.terminal) return local.runCommand(commandOptions);
      return runInClientTerminal({ client, sessionId, command: commandOptions, onTerminal: options.onTerminal });
    },
  };
}

function headAndTail(output: string): string {
  if (output.length <= headCharacters + tailCharacters) return output;
  const cut = output.length - headCharacters - tailCharacters;
  return `${output.slice(0, headCharacters)}\n[… ${cut} characters cut …]\n${output.slice(-tailCharacters)}`;
}

function runInClientTerminal(options: { client: AgentContext; sessionId: string; command: RunCommandOptions; onTerminal: (terminalId: string) => void }): RunningCommand {
  const { client, sessionId, command } = options;
  const started = Date.now();
  let end: CommandEnd | undefined;
  let terminal: TerminalHandle | undefined;
  let stopRequested = false;
  const kill = async (reason: CommandEnd): Promise<void> => {
    end ??= reason;
    stopRequested = true;
    await terminal?.kill().catch(() => undefined);
  };
  const done = (async (): Promise<CommandResult> => {
    try {
      terminal = await client.createTerminal({
        sessionId,
        command: command.shell,
        args: ["-c", command.command],
        cwd: command.cwd,
        env: [
          { name: "PAGER", value: "cat" },
          { name: "GIT_PAGER", value: "cat" },
        ],
        outputByteLimit,
      });
    } catch (error) {
      return { end: { kind: "failed_to_start", message: `the editor could not start a terminal: ${message(error)}` }, durationMs: 0, output: "", totalCharacters: 0 };
    }
    options.onTerminal(terminal.id);
    const timer = setTimeout(() => void kill({ kind: "timed_out", timeoutMs: command.timeoutMs }), command.timeoutMs);
    const onAbort = (): void => void kill({ kind: "aborted" });
    if (command.signal.aborted || stopRequested) onAbort();
    else command.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const exit = await terminal.waitForExit();
      const output = await terminal.currentOutput();
      const text = `${output.truncated ? "[the beginning of the output was dropped by the editor]\n" : ""}${output.output}`;
      return {
        end: end ?? { kind: "exited", exitCode: exit.exitCode ?? null, signal: exit.signal ?? null },
        durationMs: Date.now() - started,
        output: headAndTail(text),
        totalCharacters: output.output.length,
      };
    } catch (error) {
      return { end: end ?? { kind: "failed_to_start", message: `the editor's terminal failed: ${message(error)}` }, durationMs: Date.now() - started, output: "", totalCharacters: 0 };
    } finally {
      clearTimeout(timer);
      command.signal.removeEventListener("abort", onAbort);
      await terminal.release().catch(() => undefined);
    }
  })();
  return {
    done,
    stop: async () => {
      await kill({ kind: "aborted" });
    },
  };
}
