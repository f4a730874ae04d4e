/**
 * Piped standard input in print mode, as `claude -p` and `codex exec` read it:
 * with no task argument the input is the task; with one, the input is added to
 * the task as context (`git diff | cairn -p "review this"`).
 */
import { fstatSync } from "node:fs";

/** After this long without the end of the input, cairn says what it is waiting for (an inherited pipe may never close). */
const slowInputNoticeMs = 3000;

/**
 * Whether something is piped or redirected into standard input: a pipe, a socket
 * or a file, not a terminal and not /dev/null (a program spawned without a
 * terminal often has one of those, with nothing to read).
 */
export function stdinIsPiped(stdin: NodeJS.ReadStream & { fd?: number } = process.stdin): boolean {
  if (stdin.isTTY === true) return false;
  try {
    const info = fstatSync(stdin.fd ?? 0);
    return info.isFIFO() || info.isSocket() || info.isFile();
  } catch {
    return false;
  }
}

/** Reads standard input to its end; says once on stderr what it waits for when the input is slow to end. */
export async function readPipedText(options: { stdin?: NodeJS.ReadableStream; onSlow?: () => void } = {}): Promise<string> {
  const stdin = options.stdin ?? process.stdin;
  const slow = options.onSlow === undefined ? undefined : setTimeout(options.onSlow, slowInputNoticeMs);
  slow?.unref();
  try {
    let text = "";
    for await (const chunk of stdin) text += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    return text;
  } finally {
    if (slow !== undefined) clearTimeout(slow);
  }
}

/** The task with piped input after it, marked so the model can tell the two apart. */
export function withPipedContext(task: string, piped: string): string {
  const context = piped.replace(/\s+$/, "");
  return context.trim() === "" ? task : `${task}\n\n<stdin>\n${context}\n</stdin>`;
}

export const noTaskGiven = 'no task given. Give it as an argument (cairn -p "<task>", cairn run "<task>"), or pipe it on standard input (echo "<task>" | cairn -p)';

/**
 * The task of print mode from its argument and standard input: `-` or nothing
 * (with input piped) reads the task from the input; a task with input piped gets
 * the input as `context` (added with `withPipedContext`, after the task's own
 * @mentions are expanded: the input's text is not the user's typing). A problem
 * is a usage error for the caller to print.
 */
export async function printModeTask(argument: string, options: { stdin?: NodeJS.ReadStream; stderr?: NodeJS.WritableStream } = {}): Promise<{ task: string; context?: string } | { problem: string }> {
  const stdin = options.stdin ?? process.stdin;
  const stderr = options.stderr ?? process.stderr;
  const piped = argument === "-" || stdinIsPiped(stdin);
  const onSlow = (): void => {
    stderr.write("cairn: reading standard input (it is piped); waiting for it to end. Run with </dev/null to give none.\n");
  };
  if (argument === "-" || argument === "") {
    const task = piped ? (await readPipedText({ stdin, onSlow })).trim() : "";
    return task === "" ? { problem: noTaskGiven } : { task };
  }
  if (!piped) return { task: argument };
  return { task: argument, context: await readPipedText({ stdin, onSlow }) };
}
