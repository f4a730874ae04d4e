/**
 * Commands that keep running until stopped (dev servers, watchers): cairn
 * offers them the background (issue #31). The tool's description names them;
 * when one run in the foreground hits its timeout, the result says to run it
 * with `background` instead.
 */

const patterns: RegExp[] = [
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|watch)\b/,
  /\b(?:vite|next\s+dev|nuxt\s+dev|astro\s+dev|webpack\s+serve|webpack-dev-server|ng\s+serve|remix\s+dev)\b/,
  /\s--watch\b|\s-w\b.*\btsc\b|\btsc\b.*\s-w\b|\bnodemon\b|\bwatchexec\b|\bentr\b/,
  /\bpython3?\s+-m\s+http\.server\b|\b(?:flask|uvicorn|gunicorn|hypercorn)\b|\bmanage\.py\s+runserver\b|\brails\s+s(?:erver)?\b/,
  /\b(?:docker(?:-|\s+)compose\s+up)\b(?!.*\s-d\b)|\bhttp-server\b|\bserve\s+-/,
];

/** Whether `command` looks like one that runs until stopped. */
export function looksLongRunning(command: string): boolean {
  return patterns.some((pattern) => pattern.test(command));
}

/** Added to the result of a foreground command that timed out and looks long-running. */
export function backgroundHint(command: string): string | undefined {
  if (!looksLongRunning(command)) return undefined;
  return "[This command looks like one that keeps running (a dev server or a watcher). Run it again with background set to true: it then keeps running while you work, and read_process_output shows its output.]";
}

/** The `background` parameter as the model reads it (both protocols). */
export const backgroundParameterDescription =
  "true to start a command that keeps running (a dev server or a watcher: npm run dev, vite, next dev, tsc --watch, python -m http.server) " +
  "in the background: the call returns at once with a process id and the first lines of output; read more with read_process_output, " +
  "end it with stop_process. Background processes are ended when the task ends. Default false.";
