import type { AskType } from "../../task/contracts/messages.js";

export type UnansweredReason = "stdin_closed" | "timeout";

/**
 * An ask nobody could answer under `--on-ask fail`. The CLI turns it into exit
 * status 1 with this message.
 */
export class HeadlessAskError extends Error {
  readonly askKind: AskType;
  readonly askId: string;
  readonly reason: UnansweredReason;

  constructor(options: { askKind: AskType; askId: string; reason: UnansweredReason; timeoutMs?: number | undefined }) {
    const why = options.reason === "timeout" ? `it was not answered within ${formatDuration(options.timeoutMs ?? 0)}` : "standard input is closed";
    super(`no answer to the "${options.askKind}" ask (id ${options.askId}): ${why} and --on-ask is fail. ` + `Pass --yes to approve tools, answer asks as JSON lines on standard input, or use --on-ask deny.`);
    this.name = "HeadlessAskError";
    this.askKind = options.askKind;
    this.askId = options.askId;
    this.reason = options.reason;
  }
}

export function formatDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Number((milliseconds / 1000).toFixed(1))} s`;
}
