/**
 * `cairn run --json | head -n 3`: when the reader of stdout goes away, writes
 * fail with EPIPE. Unhandled, that error crashes the process with a stack trace
 * and leaves the task lock and a command's processes behind. A closed stdout
 * means nobody is listening any more: `onClosed` runs once (the caller stops
 * the task as on SIGTERM), and later write errors are swallowed.
 * Returns a function that stops watching.
 */
export function watchClosedStdout(stream: NodeJS.WriteStream, onClosed: () => void): () => void {
  let closed = false;
  const onError = (error: NodeJS.ErrnoException): void => {
    if (closed) return;
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED" || error.code === "ECONNRESET") {
      closed = true;
      onClosed();
      return;
    }
    // Any other write error (a full disk behind a redirect, say) stops the task the same way,
    // with a line on stderr instead of a crash.
    closed = true;
    process.stderr.write(`cairn: cannot write to stdout (${error.message}); stopping the task\n`);
    onClosed();
  };
  stream.on("error", onError);
  return () => {
    // Stay deaf to errors of writes still queued: removing the listener would let them crash us.
    stream.off("error", onError);
    stream.on("error", () => undefined);
  };
}
