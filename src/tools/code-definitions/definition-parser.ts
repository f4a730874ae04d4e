/**
 * Finds the definitions in a source file with tree-sitter. The WASM runtime
 * and each grammar are loaded on first use only, then kept for the process;
 * even the runtime's JavaScript is imported then, not at start-up (issue 18).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as TreeSitter from "web-tree-sitter";
import type { Language, Query } from "web-tree-sitter";
import { languagesByExtension, type LanguageEntry } from "./definition-queries.js";
import { baselineWasmOnly } from "../../security/shell-parser.js";

export interface Definition {
  /** 1-based line of the definition's start. */
  line: number;
  name: string;
  /** The definition's first line, trimmed. */
  text: string;
}

const require = createRequire(import.meta.url);
let runtime: Promise<typeof TreeSitter> | undefined;
const loaded = new Map<string, Promise<{ language: Language; query: Query }>>();

function grammarFolder(): string {
  return join(dirname(require.resolve("tree-sitter-wasms/package.json")), "out");
}

async function treeSitter(): Promise<typeof TreeSitter> {
  runtime ??= import("web-tree-sitter").then(async (module) => {
    baselineWasmOnly();
    await module.Parser.init();
    return module;
  });
  return runtime;
}

async function load(entry: LanguageEntry): Promise<{ language: Language; query: Query }> {
  const { Language, Query } = await treeSitter();
  let pending = loaded.get(entry.grammar + entry.query.length);
  if (pending === undefined) {
    pending = Language.load(join(grammarFolder(), entry.grammar)).then((language) => ({ language, query: new Query(language, entry.query) }));
    loaded.set(entry.grammar + entry.query.length, pending);
  }
  return pending;
}

export function supportsFile(extension: string): boolean {
  return extension.toLowerCase() in languagesByExtension;
}

export async function parseDefinitions(extension: string, source: string): Promise<Definition[]> {
  const entry = languagesByExtension[extension.toLowerCase()];
  if (entry === undefined) return [];
  const { language, query } = await load(entry);
  const { Parser } = await treeSitter();
  const parser = new Parser();
  parser.setLanguage(language);
  const tree = parser.parse(source);
  if (tree === null) {
    parser.delete();
    return [];
  }
  try {
    const lines = source.split(/\r?\n/);
    const seen = new Set<number>();
    const definitions: Definition[] = [];
    for (const match of query.matches(tree.rootNode)) {
      const definition = match.captures.find((capture) => capture.name === "definition")?.node;
      const name = match.captures.find((capture) => capture.name === "name")?.node;
      if (definition === undefined || name === undefined || seen.has(definition.id)) continue;
      seen.add(definition.id);
      const row = definition.startPosition.row;
      const text = (lines[row] ?? "").trim();
      definitions.push({ line: row + 1, name: name.text, text: text.length > 200 ? `${text.slice(0, 200)}…` : text });
    }
    return definitions.sort((left, right) => left.line - right.line);
  } finally {
    tree.delete();
    parser.delete();
  }
}
