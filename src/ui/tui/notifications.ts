/**
 * Calling the user back (docs/tui.md, "Notifications"): when a task needs an
 * answer or ends, a notification goes out at once if the terminal said it lost
 * focus (focus reporting, `CSI ? 1004 h`), else after `afterSeconds` without a
 * key. Where it goes: the terminal's own notification sequences (OSC 9, as
 * iTerm2, WezTerm, ghostty and Windows Terminal show them; OSC 777, as rxvt,
 * foot and ghostty do), the bell, and the desktop's `notify-send` where it
 * exists. Inside tmux the sequences are wrapped to pass through to the outer
 * terminal. Only the terminal UI notifies: headless runs never do.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { NotificationChannel } from "../../config/types.js";

export type Delivery = "osc9" | "osc777" | "bell" | "notify-send";

/** Asks the terminal to say when it gets or loses the focus (`CSI I`, `CSI O`), and to stop. */
export const focusReporting = { on: "\u001b[?1004h", off: "\u001b[?1004l" };

const bell = "\u0007";

/** Text for an escape sequence: no control characters, no `;` (OSC 777 separates its fields with it), short. */
function sequenceText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f;\s]+/g, " ")
    .trim()
    .slice(0, 200);
}

/** The sequence as written: wrapped for tmux's passthrough when inside it. */
function forTerminal(sequence: string, env: NodeJS.ProcessEnv): string {
  if (env["TMUX"] === undefined) return sequence;
  return `\u001bPtmux;${sequence.replace(/\u001b/g, "\u001b\u001b")}\u001b\\`;
}

export function notificationSequence(delivery: "osc9" | "osc777" | "bell", title: string, body: string, env: NodeJS.ProcessEnv): string {
  if (delivery === "bell") return bell;
  const sequence = delivery === "osc9" ? `\u001b]9;${sequenceText(`${title}: ${body}`)}${bell}` : `\u001b]777;notify;${sequenceText(title)};${sequenceText(body)}${bell}`;
  return forTerminal(sequence, env);
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  for (const folder of (env["PATH"] ?? "").split(delimiter)) {
    if (folder === "") continue;
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** The terminal's own way, from what it says about itself. */
function terminalDelivery(env: NodeJS.ProcessEnv): Delivery {
  const program = env["TERM_PROGRAM"] ?? "";
  const term = env["TERM"] ?? "";
  if (/^(iTerm\.app|WezTerm|ghostty)$/i.test(program) || env["WT_SESSION"] !== undefined || term === "xterm-ghostty") return "osc9";
  if (/^(rxvt|foot)/.test(term) || term === "xterm-kitty") return "osc777";
  return "bell";
}

/** Where notifications go for `channel` in this environment. */
export function deliveriesFor(channel: NotificationChannel, env: NodeJS.ProcessEnv): Delivery[] {
  switch (channel) {
    case "off":
      return [];
    case "terminal":
      return [terminalDelivery(env)];
    case "auto": {
      const desktop = (env["DISPLAY"] !== undefined || env["WAYLAND_DISPLAY"] !== undefined) && onPath("notify-send", env) ? (["notify-send"] as const) : [];
      return [terminalDelivery(env), ...desktop];
    }
    default:
      return [channel];
  }
}

export interface NotifierOptions {
  channel: NotificationChannel;
  afterSeconds: number;
  env: NodeJS.ProcessEnv;
  /** Writes to the terminal. */
  write: (text: string) => void;
  /** Runs `notify-send` (default: spawned, detached, its failures ignored). */
  notifySend?: (title: string, body: string) => void;
}

function spawnNotifySend(title: string, body: string): void {
  try {
    const child = spawn("notify-send", ["--app-name=cairn", title, body], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // A notification is never worth an error.
  }
}

/** One call for attention at a time: the newest replaces it; a key (or the answer) settles it, and it is never said twice. */
export class AttentionNotifier {
  readonly #deliveries: Delivery[];
  /** Undefined until the terminal reports its focus. */
  #focused: boolean | undefined;
  #timer: NodeJS.Timeout | undefined;
  #pending: { key: string; what: string } | undefined;
  /** What was said, or seen by the user before it had to be: never said (again). */
  readonly #settled = new Set<string>();

  constructor(private readonly options: NotifierOptions) {
    this.#deliveries = deliveriesFor(options.channel, options.env);
  }

  /** Whether anything is ever sent (the UI then asks the terminal to report its focus). */
  get enabled(): boolean {
    return this.#deliveries.length > 0;
  }

  focus(focused: boolean): void {
    this.#focused = focused;
    if (focused) this.settle();
    else this.#send();
  }

  /** Something needs the user (`what`: "cairn needs your answer: ..."); `key` names it, so the same thing is said once. */
  need(key: string, what: string): void {
    if (!this.enabled || this.#pending?.key === key || this.#settled.has(key)) return;
    this.settle();
    this.#pending = { key, what };
    if (this.#focused === false) this.#send();
    else {
      this.#timer = setTimeout(() => this.#send(), this.options.afterSeconds * 1000);
      this.#timer.unref();
    }
  }

  /** The user is here (a key, the focus back) or what was needed is done: nothing pending is said. */
  settle(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending !== undefined) this.#settled.add(this.#pending.key);
    this.#pending = undefined;
  }

  #send(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.settle();
    for (const delivery of this.#deliveries) {
      if (delivery === "notify-send") (this.options.notifySend ?? spawnNotifySend)("cairn", pending.what);
      else this.options.write(notificationSequence(delivery, "cairn", pending.what, this.options.env));
    }
  }
}
