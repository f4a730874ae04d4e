/**
 * The tree-sitter bash grammar, loaded once per process. Loading is async
 * (WASM); after `loadShellParser()` resolved, parsing is synchronous and takes
 * microseconds, so the approval policy can decide on every command.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { setFlagsFromString } from "node:v8";
import type { Node, Parser, Tree } from "web-tree-sitter";

export type { Node as ShellNode } from "web-tree-sitter";

const require = createRequire(import.meta.url);
let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/**
 * V8 compiles WebAssembly with its optimising compiler as well, which for the
 * tree-sitter runtime and grammar took about a second of CPU and 45 MB (wall
 * time too: the first command waited for it; issue 18). Its baseline compiler
 * alone is fast to start and parses commands in microseconds all the same, so
 * WebAssembly compiled from here on uses only that (the shell parser here, code
 * definitions in src/tools). Read when a module is compiled, so setting it
 * before the first tree-sitter module is enough.
 */
export function baselineWasmOnly(): void {
  setFlagsFromString("--liftoff-only");
}

async function load(): Promise<Parser> {
  baselineWasmOnly();
  // Imported here: 150 KB of JavaScript that a run without commands never needs (start-up, issue 18).
  const { Language, Parser } = await import("web-tree-sitter");
  await Parser.init();
  const folder = join(dirname(require.resolve("tree-sitter-wasms/package.json")), "out");
  const language = await Language.load(join(folder, "tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  loaded = parser;
  return parser;
}

export function loadShellParser(): Promise<Parser> {
  loading ??= load();
  return loading;
}

/** Parses with the loaded grammar; throws when `loadShellParser()` has not finished. */
export function parseShellSync(text: string): { tree: Tree; root: Node } {
  if (loaded === undefined) throw new Error("the shell grammar is not loaded yet (await loadShellParser() first)");
  const tree = loaded.parse(text);
  if (tree === null) throw new Error("the shell grammar could not parse the command");
  return { tree, root: tree.rootNode };
}
