/**
 * `cairn attach TASK [--server URL]`: the terminal UI, the same components as
 * `cairn`'s, drawing a task that runs in `cairn serve` (docs/server.md). The
 * task's events stream in from the server (and from where they stopped after
 * a dropped connection); questions are answered, messages sent and the task
 * stopped over the API; Ctrl+D or `/detach` leaves it running.
 * Loaded through load-interactive.ts (it imports Ink).
 */
import { renderTui } from "../../ui/tui/render.js";
import { TuiHost } from "../../ui/tui/tui-host.js";
import { FileInputHistory } from "../input-history.js";
import { AttachController } from "./attach-controller.js";
import { attachSlashCommands } from "./attach-slash-commands.js";
import { RemoteTaskFeed } from "./remote-task-feed.js";
import { RemotePrompts } from "./remote-prompts.js";
import { findTask, remoteTaskActions } from "./remote-task.js";
import type { RemoteTaskRow } from "./remote-task.js";
import { NoServerError, serverAddressSource } from "./server-address.js";
import type { ServerAddress } from "./server-address.js";
import { ServerError } from "./server-requests.js";
import { TaskEventStream } from "./task-event-stream.js";
import type { ConnectionChange } from "./task-event-stream.js";

export interface AttachOptions {
  taskId: string;
  /** `--server URL`; without it, `<dataDir>/server.json`. */
  server?: string;
  dataDir: string;
}

/** Why the server could not be used, in words that say what to do. */
function unreachable(address: ServerAddress, error: unknown): string {
  if (error instanceof ServerError && error.status === 401) return `The cairn server at ${address.url} refused the token (${error.message}). Use the address with the token cairn serve printed, or CAIRN_SERVER_TOKEN.`;
  if (error instanceof ServerError) return `The cairn server at ${address.url} answered ${error.status}: ${error.message}`;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EHOSTUNREACH") {
    return `Cannot reach the cairn server at ${address.url} (${code}). Is \`cairn serve\` still running? Start it again, or name another server with --server URL.`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Shows what happens to the connection: once when it drops, once when it is back. */
function connectionNotices(feed: RemoteTaskFeed): (change: ConnectionChange) => void {
  let lost = false;
  return (change) => {
    if (change.kind === "lost") {
      if (!lost) feed.notify("warning", `Lost the connection to the server (${change.reason}); reconnecting…`);
      lost = true;
      return;
    }
    if (lost) feed.notify("info", `Reconnected to the server: the events after #${change.after} follow, nothing is missed.`);
    lost = false;
  };
}

export async function runAttach(options: AttachOptions): Promise<number> {
  let source: () => ServerAddress;
  let address: ServerAddress;
  try {
    source = serverAddressSource({ dataDir: options.dataDir, ...(options.server === undefined ? {} : { server: options.server }) });
    address = source();
  } catch (error) {
    if (!(error instanceof NoServerError)) throw error;
    process.stderr.write(`cairn attach: ${error.message}\n`);
    return 2;
  }
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) {
    process.stderr.write(`cairn attach: the terminal UI needs a terminal. A program can follow the task with GET ${address.url}/api/tasks/<id>/events (docs/server.md).\n`);
    return 2;
  }
  let row: RemoteTaskRow;
  try {
    row = await findTask(address, options.taskId);
  } catch (error) {
    process.stderr.write(`cairn attach: ${unreachable(address, error)}\n`);
    return 1;
  }
  const host = new TuiHost();
  const actions = remoteTaskActions(source, row.taskId);
  const feed = new RemoteTaskFeed({ host, sendAnswer: (askId, response) => actions.answer(askId, response), onUserMessage: (text) => controller.delivered(text) });
  feed.state.model = row.model;
  const ui: { instance?: { unmount(): void } } = {};
  const ending: { how: "detached" | "stopped" } = { how: "detached" };
  const controller = new AttachController({
    host,
    feed,
    actions,
    label: "attached",
    onLeave: (how) => {
      ending.how = how;
      // The last messages may be waiting for the next frame: draw them, let React render, then go.
      host.flush();
      setTimeout(() => ui.instance?.unmount(), 100);
    },
  });
  feed.notify("info", `Attached to task ${row.taskId} (${row.status}) in ${row.workspace}. Ctrl+D or /detach leaves it running; Esc twice stops it.`);
  const history = new FileInputHistory({ dataDir: options.dataDir, workspace: row.workspace === "" ? process.cwd() : row.workspace });
  const prompts = new RemotePrompts(source, row.taskId);
  const instance = renderTui({ controller, host, history, commands: attachSlashCommands(prompts.commands) });
  ui.instance = instance;
  const stream = new TaskEventStream({
    address: source,
    taskId: row.taskId,
    onEvent: (event) => {
      feed.push(event);
      // The task's MCP servers may connect late or add prompts: the menu's list is read again as the task goes on.
      if (event.type === "state" || (event.type === "say" && event["say"] === "api_req_started" && event["partial"] === false)) prompts.refresh();
    },
    onConnection: connectionNotices(feed),
    onFatal: (error) => feed.notify("error", `The server stopped sending this task's events: ${error.message}`),
  }).start();
  try {
    await instance.waitUntilExit();
  } finally {
    stream.close();
  }
  process.stdout.write(
    ending.how === "stopped"
      ? `Stopped task ${row.taskId}; it can be resumed: cairn attach ${row.taskId}, then send a message.\n`
      : `Detached from task ${row.taskId}: it goes on in the server. Attach again with: cairn attach ${row.taskId}\n`,
  );
  return 0;
}
