/**
 * The diagnostics of one open file as the server sees it now. Servers differ:
 * typescript-language-server publishes nothing for a clean file, so cairn asks
 * its tsserver directly (`typescript.tsserverRequest`); servers with pull
 * diagnostics (pyright, LSP 3.17) answer `textDocument/diagnostic`; the others
 * only publish, and cairn waits for a fresh publication (or a quiet moment).
 */
import type { Diagnostic } from "vscode-languageserver-protocol";
import { fileUri, type LanguageServer } from "./language-server.js";

/** How long a publishing server may stay silent after a change before its last diagnostics count as current. */
const quietMs = 1_000;

interface TsDiagnostic {
  message: string;
  category: string;
  code?: number;
  startLocation?: { line: number; offset: number };
  endLocation?: { line: number; offset: number };
}

function fromTsserver(diagnostic: TsDiagnostic): Diagnostic {
  const start = diagnostic.startLocation ?? { line: 1, offset: 1 };
  const end = diagnostic.endLocation ?? start;
  const severity = diagnostic.category === "error" ? 1 : diagnostic.category === "warning" ? 2 : diagnostic.category === "suggestion" ? 4 : 3;
  return {
    range: { start: { line: start.line - 1, character: start.offset - 1 }, end: { line: end.line - 1, character: end.offset - 1 } },
    message: diagnostic.message,
    severity,
    source: "ts",
    ...(diagnostic.code === undefined ? {} : { code: diagnostic.code }),
  };
}

async function fromTypescript(server: LanguageServer, path: string, timeoutMs: number): Promise<Diagnostic[]> {
  const ask = (command: string) =>
    server.request<{ body?: TsDiagnostic[] } | undefined>("workspace/executeCommand", { command: "typescript.tsserverRequest", arguments: [command, { file: path, includeLinePosition: true }] }, timeoutMs);
  const [syntactic, semantic] = await Promise.all([ask("syntacticDiagnosticsSync"), ask("semanticDiagnosticsSync")]);
  return [...(syntactic?.body ?? []), ...(semantic?.body ?? [])].map(fromTsserver);
}

async function fromPull(server: LanguageServer, path: string, timeoutMs: number): Promise<Diagnostic[]> {
  const report = await server.request<{ kind?: string; items?: Diagnostic[] } | null>("textDocument/diagnostic", { textDocument: { uri: fileUri(path) } }, timeoutMs);
  return report?.items ?? [];
}

/** Waits for a publication newer than `seenCount`, or for `quietMs` of silence, within `timeoutMs`. */
async function fromPush(server: LanguageServer, path: string, seenCount: number, timeoutMs: number): Promise<Diagnostic[]> {
  const fresh = () => (server.diagnosticsOf(path)?.count ?? 0) > seenCount;
  if (!fresh()) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(quietMs, timeoutMs));
      const unsubscribe = server.onChange(() => {
        if (fresh() || server.failure !== undefined) done();
      });
      function done(): void {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
  }
  return server.diagnosticsOf(path)?.items ?? [];
}

/** The file's current diagnostics; `publishedBefore` is the server's publication count for it when its text was last sent. */
export async function currentDiagnostics(server: LanguageServer, path: string, options: { timeoutMs: number; publishedBefore: number }): Promise<Diagnostic[]> {
  if (server.spec.diagnostics === "tsserver") return fromTypescript(server, path, options.timeoutMs);
  if (server.spec.diagnostics === "pull" || server.pullsDiagnostics) return fromPull(server, path, options.timeoutMs);
  return fromPush(server, path, options.publishedBefore, options.timeoutMs);
}
