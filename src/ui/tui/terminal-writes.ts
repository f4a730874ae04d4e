/**
 * The terminal UI's writes to a real terminal, made cheaper for the thread that
 * also reads the model's stream:
 * - Node writes to a terminal synchronously on Linux, so every frame waited until
 *   the terminal (tmux, an emulator) had read it. While the UI runs, writes are
 *   queued by libuv instead, in order as before; when the UI goes, what is queued
 *   is written out and the terminal is synchronous again, so nothing printed after
 *   it, or at exit, can be lost.
 * - Ink writes a frame in several pieces (begin synchronized update, erase, the
 *   frame, end), and printed lines in as many again: each a system call, and a
 *   wake-up of the terminal, which then read and drew a part of a frame. The
 *   writes of one turn of the event loop now leave together, in one `writev`
 *   (the stream is corked until the loop's check phase).
 * The bytes and their order are the same as before.
 */

interface BlockingHandle {
  setBlocking(blocking: boolean): number;
}

function handleOf(stream: NodeJS.WriteStream): BlockingHandle | undefined {
  const handle = (stream as unknown as { _handle?: Partial<BlockingHandle> })._handle;
  return typeof handle?.setBlocking === "function" ? (handle as BlockingHandle) : undefined;
}

const drainPollMs = 5;
/** A terminal that reads nothing for this long (gone, or stopped) is not waited for any longer. */
const drainLimitMs = 5_000;

/**
 * Makes a terminal's writes asynchronous and gathered per turn of the event loop
 * until the returned function is called; that function resolves once everything
 * written so far has reached the terminal (or it stopped reading), with writes
 * synchronous and immediate again. Not a terminal: nothing changes.
 */
export function writeWithoutWaiting(stream: NodeJS.WriteStream): () => Promise<void> {
  const handle = stream.isTTY === true ? handleOf(stream) : undefined;
  if (handle === undefined || handle.setBlocking(false) !== 0) return async () => undefined;
  const ownWrite = Object.prototype.hasOwnProperty.call(stream, "write");
  // Called on the stream, as it was before (a function set on the stream by a preload, or the prototype's).
  const write = (stream as unknown as { write: (...args: unknown[]) => boolean }).write;
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    stream.uncork();
  };
  const gathered = function (...args: unknown[]): boolean {
    if (!corked && !stream.destroyed) {
      corked = true;
      stream.cork();
      setImmediate(uncork);
    }
    return write.apply(stream, args);
  } as NodeJS.WriteStream["write"];
  stream.write = gathered;
  return async () => {
    if (stream.write === gathered) {
      if (ownWrite) stream.write = write;
      else delete (stream as { write?: unknown }).write;
    }
    uncork();
    const deadline = Date.now() + drainLimitMs;
    while (stream.writableLength > 0 && !stream.destroyed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, drainPollMs));
    }
    handle.setBlocking(true);
  };
}
