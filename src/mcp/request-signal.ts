/** Helpers of one MCP request: its own abort signal, the SDK's limit, progress as text. */
/**
 * A signal of its own for one request, following the task's signal. The SDK never
 * removes the abort listener it adds, so handing it the long-lived task signal would
 * pile up one listener per call (and send stale cancellations on abort).
 */
export function requestSignal(parent: AbortSignal): { signal: AbortSignal; abort(): void; dispose(): void } {
  const controller = new AbortController();
  const forward = (): void => controller.abort(parent.reason);
  if (parent.aborted) forward();
  else parent.addEventListener("abort", forward, { once: true });
  return { signal: controller.signal, abort: () => controller.abort(), dispose: () => parent.removeEventListener("abort", forward) };
}

/** The SDK's own limit for a tool call; cairn's `CallClock` (paused while the user answers the server) ends it first. */
export const sdkCallLimitMs = 2 ** 31 - 1;

export function formatProgress(progress: { progress: number; total?: number | undefined; message?: string | undefined }): string {
  const amount = progress.total === undefined ? `${progress.progress}` : `${progress.progress}/${progress.total}`;
  return progress.message === undefined || progress.message === "" ? `progress ${amount}` : `${progress.message} (${amount})`;
}
