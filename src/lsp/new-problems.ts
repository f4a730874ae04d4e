/**
 * The problems an edit introduced: the diagnostics after it that were not
 * there before (matched by severity, source, code and message, so problems
 * that only moved lines are not new), errors before warnings, as text capped
 * in size for the model.
 */
import type { Diagnostic } from "vscode-languageserver-protocol";

/** A diagnostic's message as text (LSP 3.18 allows Markdown). */
export function messageText(diagnostic: Diagnostic): string {
  const message: unknown = diagnostic.message;
  return typeof message === "string" ? message : ((message as { value?: string }).value ?? "");
}

export interface FileDiagnostics {
  /** The file as the model knows it (relative to the workspace). */
  display: string;
  /** Set for a file that imports the edited one. */
  importerOf?: string;
  before: readonly Diagnostic[] | undefined;
  after: readonly Diagnostic[];
}

export interface NewProblem {
  display: string;
  importerOf?: string;
  line: number;
  severity: "error" | "warning";
  text: string;
}

const maximumShown = 20;
const maximumCharacters = 4_000;

function severityOf(diagnostic: Diagnostic): "error" | "warning" | undefined {
  if (diagnostic.severity === 1 || diagnostic.severity === undefined) return "error";
  return diagnostic.severity === 2 ? "warning" : undefined;
}

function identity(diagnostic: Diagnostic): string {
  return `${diagnostic.severity ?? 1}\u0000${diagnostic.source ?? ""}\u0000${String(diagnostic.code ?? "")}\u0000${messageText(diagnostic)}`;
}

function describe(diagnostic: Diagnostic): string {
  const code = diagnostic.code === undefined ? "" : diagnostic.source === "ts" ? ` TS${String(diagnostic.code)}` : ` ${String(diagnostic.code)}`;
  const message = messageText(diagnostic)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
  return `${code.trim() === "" ? "" : `${code.trim()}: `}${message}`;
}

/** The errors and warnings in `after` beyond those in `before` (all of them when `before` is unknown: a new file). */
export function newProblems(files: readonly FileDiagnostics[]): NewProblem[] {
  const problems: NewProblem[] = [];
  for (const file of files) {
    const remaining = new Map<string, number>();
    for (const diagnostic of file.before ?? []) remaining.set(identity(diagnostic), (remaining.get(identity(diagnostic)) ?? 0) + 1);
    for (const diagnostic of file.after) {
      const severity = severityOf(diagnostic);
      if (severity === undefined) continue;
      const key = identity(diagnostic);
      const left = remaining.get(key) ?? 0;
      if (left > 0) {
        remaining.set(key, left - 1);
        continue;
      }
      problems.push({ display: file.display, ...(file.importerOf === undefined ? {} : { importerOf: file.importerOf }), line: diagnostic.range.start.line + 1, severity, text: describe(diagnostic) });
    }
  }
  const rank = (problem: NewProblem) => (problem.severity === "error" ? 0 : 1);
  return problems.sort((a, b) => rank(a) - rank(b) || (a.importerOf === undefined ? 0 : 1) - (b.importerOf === undefined ? 0 : 1) || a.display.localeCompare(b.display) || a.line - b.line);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function countsOf(problems: readonly NewProblem[]): { errors: number; warnings: number } {
  const errors = problems.filter((problem) => problem.severity === "error").length;
  return { errors, warnings: problems.length - errors };
}

/** The text the model reads after the edit's result; undefined when the edit introduced nothing. */
export function describeNewProblems(problems: readonly NewProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  const counts = countsOf(problems);
  const summary = [counts.errors > 0 ? plural(counts.errors, "error") : "", counts.warnings > 0 ? plural(counts.warnings, "warning") : ""].filter((part) => part !== "").join(", ");
  const lines = [`New problems detected after this edit (${summary}):`];
  let length = lines[0]?.length ?? 0;
  let shown = 0;
  let heading = "";
  for (const problem of problems) {
    const fileHeading = problem.importerOf === undefined ? `${problem.display}:` : `${problem.display} (imports ${problem.importerOf}):`;
    const line = `- line ${problem.line}: ${problem.severity} ${problem.text}`;
    const added = (fileHeading !== heading ? fileHeading.length + 1 : 0) + line.length + 1;
    if (shown >= maximumShown || length + added > maximumCharacters) break;
    if (fileHeading !== heading) {
      lines.push(fileHeading);
      heading = fileHeading;
    }
    lines.push(line.length > 600 ? `${line.slice(0, 600)}…` : line);
    length += added;
    shown += 1;
  }
  if (shown < problems.length) lines.push(`(${problems.length - shown} more not shown)`);
  return lines.join("\n");
}
