/**
 * Which language server serves which files: the two cairn ships
 * (typescript-language-server, with the workspace's own TypeScript when it
 * has one, and pyright) and any the settings add or turn off (`lsp` in
 * docs/configuration.md).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { findProgram } from "../security/program-path.js";

export interface ServerSpec {
  name: string;
  /** Program and arguments; the program is looked up on PATH unless absolute. */
  command: string[];
  /** File name endings served (with the dot), lower case. */
  extensions: string[];
  initializationOptions?: unknown;
  /** How cairn learns a file's current diagnostics (default: pull when the server offers it, else wait for publications). */
  diagnostics?: "tsserver" | "pull";
  /** The LSP language id of a file, by its ending. */
  languageId(path: string): string;
}

/** One entry of the `lsp` settings block. */
export interface LspServerSetting {
  command?: string[] | undefined;
  extensions?: string[] | undefined;
  disabled?: boolean | undefined;
  initialization?: Record<string, unknown> | undefined;
}

export type LspSettings = Record<string, LspServerSetting>;

const typescriptExtensions = [".ts", ".tsx", ".mts", ".cts"];
const javascriptExtensions = [".js", ".jsx", ".mjs", ".cjs"];

/**
 * JavaScript files are served in a TypeScript or JavaScript project (a tsconfig.json or
 * jsconfig.json at the root): elsewhere tsserver finds little beyond syntax in them, and a
 * cold start would cost the first edit of every plain JavaScript folder its wait.
 */
function servesJavaScript(workspace: string): boolean {
  return existsSync(join(workspace, "tsconfig.json")) || existsSync(join(workspace, "jsconfig.json"));
}
const pythonExtensions = [".py", ".pyi"];

const typescriptLanguageIds: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".jsx": "javascriptreact",
};

const requireHere = createRequire(import.meta.url);

function packageFile(specifier: string): string | undefined {
  try {
    return requireHere.resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The tsserver the TypeScript server uses: the workspace's own when it has one, else cairn's. */
export function tsserverPath(workspace: string): string | undefined {
  const own = join(workspace, "node_modules", "typescript", "lib", "tsserver.js");
  if (existsSync(own)) return own;
  return packageFile("typescript/lib/tsserver.js");
}

function builtinSpecs(workspace: string): ServerSpec[] {
  const specs: ServerSpec[] = [];
  const typescriptPackage = packageFile("typescript-language-server/package.json");
  const tsserver = tsserverPath(workspace);
  if (typescriptPackage !== undefined && tsserver !== undefined) {
    specs.push({
      name: "typescript",
      command: [process.execPath, join(dirname(typescriptPackage), "lib", "cli.mjs"), "--stdio"],
      extensions: servesJavaScript(workspace) ? [...typescriptExtensions, ...javascriptExtensions] : typescriptExtensions,
      diagnostics: "tsserver",
      initializationOptions: { tsserver: { path: tsserver }, preferences: { includeCompletionsForModuleExports: false } },
      languageId: (path) => typescriptLanguageIds[extname(path).toLowerCase()] ?? "javascript",
    });
  }
  const pyright = packageFile("pyright/package.json");
  if (pyright !== undefined) {
    specs.push({ name: "pyright", command: [process.execPath, join(dirname(pyright), "langserver.index.js"), "--stdio"], extensions: pythonExtensions, diagnostics: "pull", languageId: () => "python" });
  }
  return specs;
}

/** Whether `program` can be started: an existing absolute path, or a name found on PATH. */
export function programExists(program: string, path = process.env["PATH"] ?? ""): boolean {
  return findProgram(program, { path }) !== undefined;
}

/**
 * The servers in force for a workspace: the built-in ones with the settings'
 * changes, and the settings' own servers whose program exists. A server whose
 * program is missing is left out (a workspace without a server is no error).
 */
export function serverSpecs(workspace: string, settings: LspSettings = {}): ServerSpec[] {
  const specs = new Map(builtinSpecs(workspace).map((spec) => [spec.name, spec]));
  for (const [name, setting] of Object.entries(settings)) {
    const builtin = specs.get(name);
    if (setting.disabled === true) {
      specs.delete(name);
      continue;
    }
    const command = setting.command ?? builtin?.command;
    const extensions = (setting.extensions ?? builtin?.extensions ?? []).map((ending) => (ending.startsWith(".") ? ending : `.${ending}`).toLowerCase());
    if (command === undefined || command.length === 0 || extensions.length === 0) continue;
    const languageId = builtin === undefined ? (path: string) => extname(path).slice(1).toLowerCase() : (path: string) => builtin.languageId(path);
    const initializationOptions = setting.initialization ?? builtin?.initializationOptions;
    const diagnostics = setting.command === undefined ? builtin?.diagnostics : undefined;
    specs.set(name, { name, command, extensions, languageId, ...(initializationOptions === undefined ? {} : { initializationOptions }), ...(diagnostics === undefined ? {} : { diagnostics }) });
  }
  return [...specs.values()].filter((spec) => programExists(spec.command[0] ?? ""));
}

export function specFor(specs: readonly ServerSpec[], path: string): ServerSpec | undefined {
  const ending = extname(path).toLowerCase();
  return specs.find((spec) => spec.extensions.includes(ending));
}
