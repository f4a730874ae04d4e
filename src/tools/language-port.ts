/**
 * What the file tools and the `lsp` tool need from the language servers
 * (src/lsp/ implements it): the new problems an edit introduced, and
 * code-intelligence queries. Tools depend only on this port.
 */

import type { EditDiagnosticsCounts } from "../task/contracts/tool-meta.js";

export type { EditDiagnosticsCounts };

export interface EditDiagnosticsReport {
  /** What the model reads after the edit's result (undefined: nothing to say). */
  text: string | undefined;
  counts: EditDiagnosticsCounts;
}

/** One edit in progress: the problems before it are being collected while it is written. */
export interface EditProbe {
  /** Call once the new content is on disk; never rejects, and answers within the probe's deadline. */
  afterEdit(after: string): Promise<EditDiagnosticsReport>;
}

export const lspOperations = ["definition", "references", "hover", "document_symbols", "workspace_symbols", "diagnostics"] as const;
export type LspOperation = (typeof lspOperations)[number];

export interface LspQuery {
  operation: LspOperation;
  /** Absolute path of the file (all but workspace_symbols). */
  path?: string;
  /** 1-based line and column of the symbol (definition, references, hover). */
  line?: number;
  column?: number;
  /** The name searched for (workspace_symbols). */
  query?: string;
}

export interface LanguagePort {
  /** Whether some server serves files like `path` (absolute). */
  serves(path: string): boolean;
  /** `path` (absolute) is about to change from `before` (undefined: it does not exist); undefined when no server serves it. */
  beforeEdit(path: string, before: string | undefined): EditProbe | undefined;
  /** The model read `path`: its server may start and open it now, so the first edit finds it warm. */
  noteRead(path: string): void;
  /** Answers a query as text for the model; `ok: false` says why it could not. */
  query(request: LspQuery): Promise<{ ok: true; text: string } | { ok: false; message: string }>;
}
