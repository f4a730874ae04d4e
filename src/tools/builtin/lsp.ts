/** lsp: code intelligence from the workspace's language servers (issue #32). */
import { lspOperations, type LspOperation, type LspQuery } from "../language-port.js";
import { approvePath, checkIgnored } from "../path-access.js";
import { invalidParameter, mistake, success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

const needsPosition = new Set<LspOperation>(["definition", "references", "hover"]);

function positiveInteger(value: string | undefined): number | undefined | "invalid" {
  if (value === undefined || value.trim() === "") return undefined;
  const parsed = Number(value.trim());
  return Number.isInteger(parsed) && parsed >= 1 ? parsed : "invalid";
}

export const lspTool: ToolDefinition = {
  name: "lsp",
  description:
    "Ask the workspace's language servers (TypeScript/JavaScript, Python, and any configured) about code. Operations: " +
    "definition, references, hover (type and docs) at a position; document_symbols of a file; workspace_symbols matching a name; " +
    "diagnostics (the current errors and warnings) of a file. Positions are 1-based: give line and column, or line and the " +
    "symbol's name as query (its first occurrence on the line is used).",
  parameters: [
    { name: "operation", required: true, description: `One of: ${lspOperations.join(", ")}.`, usage: "definition" },
    { name: "path", required: false, description: "The file, relative to the workspace (every operation but workspace_symbols; there it picks the language).", usage: "src/file.ts" },
    { name: "line", required: false, type: "integer", description: "1-based line of the symbol (definition, references, hover).", usage: "12" },
    { name: "column", required: false, type: "integer", description: "1-based column of the symbol; instead, give its name as query.", usage: "8" },
    { name: "query", required: false, description: "The symbol's name: searched for by workspace_symbols, located on the line by the others.", usage: "symbolName" },
  ],
  readOnly: true,
  isAvailable: (options) => options.languages !== undefined,
  describePartial(params) {
    return { text: `Ask the language server: ${params["operation"] ?? ""} ${params["path"] ?? ""}`.trim(), meta: { tool: "lsp", operation: params["operation"] ?? "", path: params["path"] ?? "" } };
  },
  async execute(params, runtime) {
    const languages = runtime.options.languages;
    if (languages === undefined) return toolError("no language servers are available in this session.");
    const operation = (params["operation"] ?? "").trim() as LspOperation;
    if (!lspOperations.includes(operation)) return invalidParameter({ tool: "lsp", parameter: "operation", problem: `'${operation}' is not one of ${lspOperations.join(", ")}.` });
    const line = positiveInteger(params["line"]);
    const column = positiveInteger(params["column"]);
    if (line === "invalid" || column === "invalid") return invalidParameter({ tool: "lsp", parameter: line === "invalid" ? "line" : "column", problem: "give a whole number from 1." });
    const requested = (params["path"] ?? "").trim();
    if (requested === "" && operation !== "workspace_symbols") return mistake(`lsp ${operation} needs the path of a file.`);
    if (needsPosition.has(operation) && line === undefined) return mistake(`lsp ${operation} needs the line of the symbol (and its column, or its name as query).`);
    const query = params["query"]?.trim();
    const checked = checkIgnored(runtime, requested === "" ? "." : requested);
    if (!checked.ok) return checked.outcome;
    const shown = [operation, requested, line === undefined ? "" : `line ${line}`, query ?? ""].filter((part) => part !== "").join(" ");
    const approved = await approvePath({
      runtime,
      path: checked.path,
      access: "read",
      text: `Ask the language server: ${shown}`,
      meta: { tool: "lsp", operation, ...(line === undefined ? {} : { line }), ...(query === undefined || query === "" ? {} : { query }) },
    });
    if (!approved.ok) return approved.outcome;
    const request: LspQuery = {
      operation,
      ...(requested === "" ? {} : { path: approved.path.real }),
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
      ...(query === undefined || query === "" ? {} : { query }),
    };
    const answer = await languages.query(request);
    if (!answer.ok) return toolError(answer.message);
    return withApprovalFeedback(success(answer.text), approved.feedback);
  },
};
