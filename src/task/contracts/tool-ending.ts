/**
 * How a tool call ended, in one line for the user: every surface (the text
 * printer, `cairn show`, the terminal UI's card, ACP) says it the same way,
 * from the card's meta (`status`, `error`, `end`, `durationMs`, tool-meta.ts).
 */
import type { CommandEnd, EditDiagnosticsCounts, ToolCard } from "./tool-meta.js";

function seconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(1))} s`;
}

/** "exited with code 2", "killed by SIGKILL", "timed out after 600 s ...", "aborted: the task was cancelled", "could not start: ...". */
export function commandEndText(end: CommandEnd): string {
  switch (end.kind) {
    case "exited":
      return end.signal !== null ? `killed by ${end.signal}` : end.exitCode === null ? "exited without an exit code" : `exited with code ${end.exitCode}`;
    case "timed_out":
      return `timed out after ${seconds(end.timeoutMs)} and was stopped, with everything it started`;
    case "aborted":
      return "aborted: the task was cancelled";
    case "failed_to_start":
      return `could not start: ${end.message}`;
  }
}

/** Whether a command's end is a plain success (exit code 0). */
export function commandSucceeded(end: CommandEnd): boolean {
  return end.kind === "exited" && end.signal === null && end.exitCode === 0;
}

export type ToolEnding = {
  /** "failed": the tool failed or was refused; "denied": its approval was answered no; "ended": a command that ended by itself. */
  kind: "failed" | "denied" | "ended";
  /** The line to show: the reason, or a command's exit status and duration. */
  text: string;
  /** A plain success (a command that exited with code 0). */
  ok: boolean;
};

/**
 * How the call on this card ended, or undefined while it runs (or when it
 * succeeded with nothing to say). A failure's reason is its first line.
 */
export function toolEnding(card: ToolCard | undefined): ToolEnding | undefined {
  if (card === undefined) return undefined;
  if (card.status === "error" || card.status === "rejected") {
    const reason = (card.error ?? "").split("\n", 1)[0]?.trim() ?? "";
    return { kind: card.status === "error" ? "failed" : "denied", text: reason !== "" ? reason : card.status === "error" ? "failed" : "denied", ok: false };
  }
  if (card.end === undefined) return undefined;
  const took = card.durationMs === undefined || card.end.kind === "timed_out" ? "" : ` after ${seconds(card.durationMs)}`;
  return { kind: "ended", text: `${commandEndText(card.end)}${took}`, ok: commandSucceeded(card.end) };
}

/**
 * An edit's new problems in a line (#32): "2 new problems: 1 error, 1 warning",
 * or why none were checked; undefined when there is nothing to say (no server, or none new).
 */
export function diagnosticsText(counts: EditDiagnosticsCounts | undefined): { text: string; severity: "error" | "warning" | "note" } | undefined {
  if (counts === undefined) return undefined;
  if (counts.unavailable !== undefined) return { text: `no diagnostics: ${counts.unavailable}`, severity: "note" };
  const total = counts.errors + counts.warnings;
  if (total === 0) return undefined;
  const parts = [counts.errors > 0 ? `${counts.errors} error${counts.errors === 1 ? "" : "s"}` : "", counts.warnings > 0 ? `${counts.warnings} warning${counts.warnings === 1 ? "" : "s"}` : ""].filter(
    (part) => part !== "",
  );
  return { text: `${total} new problem${total === 1 ? "" : "s"}: ${parts.join(", ")}`, severity: counts.errors > 0 ? "error" : "warning" };
}
