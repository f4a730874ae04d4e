/**
 * A tmux control-mode client (`tmux -C attach`) on a test session: commands go
 * to the tmux server over one pipe, and the server tells the client at once
 * when the pane writes output (`%output`). Measuring how fast a program echoes
 * a key this way costs no process per key and per look at the screen, which
 * on a busy 2-core machine cost more than what was measured (tens of ms each).
 */
import { spawn } from "node:child_process";

export interface TmuxControl {
  /** Runs one tmux command through the client; resolves with its output (rejects on `%error`). */
  command(line: string): Promise<string>;
  /** How many times the pane has written output since the client attached. */
  outputs(): number;
  /** Resolves once the pane has written output more than `seen` times (see `outputs`), or after `timeoutMs`. */
  outputAfter(seen: number, timeoutMs: number): Promise<void>;
  close(): void;
}

interface Pending {
  resolve: (output: string) => void;
  reject: (error: Error) => void;
}

export interface ControlOptions {
  /**
   * false: the server does not send the pane's output to this client (no-output), so a client that
   * only looks at the screen costs neither the server nor its reader the copy of every byte drawn;
   * `outputs` then stays 0.
   */
  output?: boolean;
}

export async function attachControl(tmuxArgs: readonly string[], session: string, options: ControlOptions = {}): Promise<TmuxControl> {
  // ignore-size: the client's own size never resizes the session's window.
  const flags = options.output === false ? "ignore-size,no-output" : "ignore-size";
  const child = spawn("tmux", [...tmuxArgs, "-C", "attach-session", "-f", flags, "-t", session], { stdio: ["pipe", "pipe", "ignore"] });
  const pending: Pending[] = [];
  const outputWaiters = new Set<() => void>();
  let outputs = 0;
  let block: string[] | undefined;
  let buffered = "";
  let closed = false;
  // The server first answers the attach itself with an empty block.
  pending.push({ resolve: () => undefined, reject: () => undefined });
  const onLine = (line: string): void => {
    if (block !== undefined) {
      if (line.startsWith("%end ") || line.startsWith("%error ")) {
        const waiter = pending.shift();
        const text = block.join("\n");
        block = undefined;
        if (line.startsWith("%end ")) waiter?.resolve(text);
        else waiter?.reject(new Error(`tmux: ${text}`));
      } else {
        block.push(line);
      }
      return;
    }
    if (line.startsWith("%begin ")) block = [];
    else if (line.startsWith("%output ")) {
      outputs += 1;
      for (const waiter of outputWaiters) waiter();
      outputWaiters.clear();
    }
  };
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (data: string) => {
    buffered += data;
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      onLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  child.on("exit", () => {
    closed = true;
    for (const waiter of pending.splice(0)) waiter.reject(new Error("the tmux control client ended"));
  });
  const control: TmuxControl = {
    command: (line) =>
      new Promise<string>((resolve, reject) => {
        if (closed) {
          reject(new Error("the tmux control client ended"));
          return;
        }
        pending.push({ resolve, reject });
        child.stdin.write(`${line}\n`);
      }),
    outputs: () => outputs,
    outputAfter: (seen, timeoutMs) =>
      new Promise<void>((resolve) => {
        if (outputs > seen) {
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          outputWaiters.delete(done);
          resolve();
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        outputWaiters.add(done);
      }),
    close: () => {
      closed = true;
      child.stdin.end();
      child.kill();
    },
  };
  await control.command(`refresh-client -f ${flags}`);
  return control;
}
