/**
 * The `lsp` tool's questions, asked of a server and answered as short text
 * for the model: definition, references, hover, document and workspace
 * symbols, and a file's current diagnostics. Positions are 1-based.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic, DocumentSymbol, Hover, Location, LocationLink, MarkedString, MarkupContent, SymbolInformation } from "vscode-languageserver-protocol";
import type { LspQuery } from "../tools/language-port.js";
import { fileUri, type LanguageServer } from "./language-server.js";
import { messageText } from "./new-problems.js";

const maximumItems = 50;
const maximumCharacters = 8_000;

const symbolKinds = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

export interface QueryContext {
  request: LspQuery;
  servers: readonly LanguageServer[];
  workspace: string;
  /** Opens (or refreshes) a file in a server; its text, undefined when it cannot be read. */
  open(server: LanguageServer, path: string): Promise<string | undefined>;
  diagnostics(server: LanguageServer, path: string, text: string): Promise<Diagnostic[]>;
  timeoutMs: number;
}

function cap(lines: string[], empty: string): string {
  if (lines.length === 0) return empty;
  const shown = lines.slice(0, maximumItems);
  let text = shown.join("\n");
  if (text.length > maximumCharacters) text = `${text.slice(0, maximumCharacters)}\n[cut]`;
  return lines.length > shown.length ? `${text}\n(${lines.length - shown.length} more not shown)` : text;
}

function lineOf(path: string, line: number, cache: Map<string, string[]>): string {
  let lines = cache.get(path);
  if (lines === undefined) {
    try {
      lines = readFileSync(path, "utf8").split("\n");
    } catch {
      lines = [];
    }
    cache.set(path, lines);
  }
  return (lines[line] ?? "").trim().slice(0, 200);
}

function describeLocations(found: Location | Location[] | LocationLink[] | null | undefined, workspace: string): string[] {
  const list: Array<Location | LocationLink> = found === null || found === undefined ? [] : Array.isArray(found) ? found : [found];
  const cache = new Map<string, string[]>();
  return list.map((item) => {
    const uri = "targetUri" in item ? item.targetUri : item.uri;
    const range = "targetUri" in item ? item.targetSelectionRange : item.range;
    const path = uri.startsWith("file:") ? fileURLToPath(uri) : uri;
    const shown = relative(workspace, path).startsWith("..") ? path : relative(workspace, path);
    return `${shown}:${range.start.line + 1}:${range.start.character + 1}: ${lineOf(path, range.start.line, cache)}`;
  });
}

function hoverText(hover: Hover | null): string {
  if (hover === null) return "";
  const part = (content: MarkupContent | MarkedString): string => (typeof content === "string" ? content : "kind" in content ? content.value : `\`\`\`${content.language}\n${content.value}\n\`\`\``);
  return (Array.isArray(hover.contents) ? hover.contents.map(part) : [part(hover.contents)]).join("\n\n").trim();
}

function documentSymbolLines(symbols: Array<DocumentSymbol | SymbolInformation>, depth = 0): string[] {
  return symbols.flatMap((symbol) => {
    const line = "location" in symbol ? symbol.location.range.start.line : symbol.selectionRange.start.line;
    const own = `${"  ".repeat(depth)}${symbolKinds[symbol.kind] ?? "symbol"} ${symbol.name} (line ${line + 1})`;
    return "children" in symbol && symbol.children !== undefined ? [own, ...documentSymbolLines(symbol.children, depth + 1)] : [own];
  });
}

/** The 0-based position of the request: its line and column, or where `query` (a name) first appears on the line. */
function positionOf(request: LspQuery, text: string): { line: number; character: number } {
  const line = Math.max(0, (request.line ?? 1) - 1);
  if (request.column !== undefined) return { line, character: Math.max(0, request.column - 1) };
  const content = text.split("\n")[line] ?? "";
  const at = request.query === undefined ? -1 : content.indexOf(request.query);
  return { line, character: at >= 0 ? at : content.length - content.trimStart().length };
}

export async function answerQuery(context: QueryContext): Promise<string> {
  const { request, workspace, timeoutMs } = context;
  if (request.operation === "workspace_symbols") {
    const lines: string[] = [];
    for (const server of context.servers) {
      if (request.path !== undefined) await context.open(server, request.path);
      const found = await server.request<SymbolInformation[] | null>("workspace/symbol", { query: request.query ?? "" }, timeoutMs);
      for (const symbol of found ?? []) {
        const path = symbol.location.uri.startsWith("file:") ? fileURLToPath(symbol.location.uri) : symbol.location.uri;
        if (path.includes("/node_modules/")) continue;
        lines.push(`${symbolKinds[symbol.kind] ?? "symbol"} ${symbol.name}${symbol.containerName ? ` in ${symbol.containerName}` : ""}: ${relative(workspace, path)}:${symbol.location.range.start.line + 1}`);
      }
    }
    return cap(lines, `No symbols match "${request.query ?? ""}".`);
  }
  const server = context.servers[0];
  const path = request.path;
  if (server === undefined || path === undefined) return "No language server serves this request.";
  const text = await context.open(server, path);
  if (text === undefined) return `${relative(workspace, path)} cannot be read.`;
  const textDocument = { uri: fileUri(path) };
  switch (request.operation) {
    case "definition": {
      const found = await server.request<Location | Location[] | LocationLink[] | null>("textDocument/definition", { textDocument, position: positionOf(request, text) }, timeoutMs);
      return cap(describeLocations(found, workspace), "No definition found at that position.");
    }
    case "references": {
      const found = await server.request<Location[] | null>("textDocument/references", { textDocument, position: positionOf(request, text), context: { includeDeclaration: true } }, timeoutMs);
      return cap(describeLocations(found, workspace), "No references found at that position.");
    }
    case "hover": {
      const found = await server.request<Hover | null>("textDocument/hover", { textDocument, position: positionOf(request, text) }, timeoutMs);
      return cap(
        [hoverText(found)].filter((line) => line !== ""),
        "Nothing is known at that position.",
      );
    }
    case "document_symbols": {
      const found = await server.request<Array<DocumentSymbol | SymbolInformation> | null>("textDocument/documentSymbol", { textDocument }, timeoutMs);
      return cap(documentSymbolLines(found ?? []), "The file defines no symbols.");
    }
    case "diagnostics": {
      const found = await context.diagnostics(server, path, text);
      const severities = ["error", "error", "warning", "info", "hint"];
      const lines = found.map((item) => `line ${item.range.start.line + 1}: ${severities[item.severity ?? 1] ?? "error"} ${messageText(item).replace(/\s*\n\s*/g, " ")}`);
      return cap(lines, `No problems in ${relative(workspace, path)}.`);
    }
  }
}
