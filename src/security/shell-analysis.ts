/**
 * Reads a command line on the real bash grammar: every simple command in
 * chains, pipes, subshells, command and process substitutions, here-docs and
 * function bodies, every redirection, and what the parse could not fully
 * understand. Pure and synchronous once the grammar is loaded.
 */
import type { Tree } from "web-tree-sitter";
import { parseShellSync, type ShellNode } from "./shell-parser.js";
import { readWord, type ShellWord } from "./shell-words.js";

export interface SimpleCommand {
  words: ShellWord[];
  /** Names assigned for this command only (`FOO=1 git log`). */
  assignments: string[];
  /** The command's own source text. */
  source: string;
  /** Where it starts in the text (commands and redirections are read in this order). */
  start: number;
}

export interface Redirection {
  operator: string;
  target: ShellWord;
  /** Writes (`>`, `>>`, `&>`, `>|`, `<>`) or only reads (`<`). */
  writes: boolean;
  start: number;
}

export interface ShellAnalysis {
  commands: SimpleCommand[];
  redirections: Redirection[];
  /** Why the text cannot be fully understood; empty when it can. */
  unsure: string[];
}

/** Separators and controls a terminal hides or a shell treats unlike what the eye sees. */
/** cairn's own variables (the marker that ends what a command leaves running): a command that unsets or changes them is not understood. */
const cairnVariable = /\bCAIRN_COMMAND_TOKEN\b/;

const unusualCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;

const writingOperators = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);
/** Variables that make an ordinary command run something else. */
export const hijackingVariables =
  /^(LD_\w+|DYLD_\w+|\w*PAGER|\w*EDITOR|BASH_ENV|ENV|BASH_FUNC_\w+|PATH|IFS|PS4|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5\w*|PERLLIB|RUBYOPT|RUBYLIB|GIT_\w+|LESSOPEN|LESSCLOSE|GCONV_PATH|HOSTALIASES|npm_config_\w+|NPM_CONFIG_\w+|CARGO_\w+|RUSTC_WRAPPER|MAKEFLAGS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|CLASSPATH)$/i;

function named(node: ShellNode): ShellNode[] {
  return node.namedChildren.filter((child): child is ShellNode => child !== null);
}

function operatorOf(node: ShellNode): string {
  for (const child of node.children) {
    if (child !== null && !child.isNamed) return child.type;
  }
  return "";
}

function readCommand(node: ShellNode, analysis: ShellAnalysis): void {
  const words: ShellWord[] = [];
  const assignments: string[] = [];
  const nameId = node.childForFieldName("name")?.id;
  for (const child of named(node)) {
    if (child.type === "variable_assignment") {
      const name = child.childForFieldName("name")?.text ?? "";
      assignments.push(name);
      if (hijackingVariables.test(name)) analysis.unsure.push(`the assignment ${name}=… changes what the command runs`);
    } else if (child.type === "command_name" || nameId === child.id) {
      words.push(readWord(child));
    } else if (!child.type.endsWith("redirect")) {
      words.push(readWord(child));
    }
  }
  if (words.length > 0) analysis.commands.push({ words, assignments, source: node.text, start: node.startIndex });
}

function readDeclaration(node: ShellNode, analysis: ShellAnalysis): void {
  const keyword = node.child(0)?.type ?? node.type;
  const words: ShellWord[] = [{ text: keyword, dynamic: false, glob: false, brace: false }];
  for (const child of named(node)) {
    if (child.type === "variable_assignment") {
      const name = child.childForFieldName("name")?.text ?? "";
      if (hijackingVariables.test(name)) analysis.unsure.push(`the assignment ${name}=… changes what later commands run`);
      words.push({ text: child.text, dynamic: true, glob: false, brace: false });
    } else words.push(readWord(child));
  }
  analysis.commands.push({ words, assignments: [], source: node.text, start: node.startIndex });
}

function readRedirect(node: ShellNode, analysis: ShellAnalysis): void {
  const operator = operatorOf(node);
  const destination = node.childForFieldName("destination");
  if (destination === null) return;
  const target = readWord(destination);
  // `2>&1`, `>&-`: duplicating a descriptor writes no file.
  if ((operator === ">&" || operator === "<&") && /^(\d+|-)$/.test(target.text)) return;
  analysis.redirections.push({ operator, target, writes: writingOperators.has(operator), start: node.startIndex });
}

/** Node types the walk must look at; every other node is only passed through. */
const interesting = new Set(["command", "declaration_command", "unset_command", "file_redirect", "variable_assignment", "arithmetic_expansion", "arithmetic_command", "function_definition", "ERROR"]);

/**
 * Visits the tree with a cursor: creating a Node object for every node of a
 * long chain costs far more than the parse itself, so only the nodes that
 * matter are materialised.
 */
function walkTree(tree: Tree, analysis: ShellAnalysis): void {
  const cursor = tree.walk();
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (cursor.nodeIsMissing) analysis.unsure.push("the shell text is incomplete (something is missing)");
      if (interesting.has(type)) visit(cursor.currentNode, analysis);
      if (type !== "command" && type !== "declaration_command" && type !== "unset_command" && cursor.gotoFirstChild()) continue;
      // Commands are read whole by visit(), but substitutions inside them hold commands too: descend into them.
      if ((type === "command" || type === "declaration_command" || type === "unset_command") && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

function visit(node: ShellNode, analysis: ShellAnalysis): void {
  if (node.type === "ERROR") {
    analysis.unsure.push(`the shell text does not parse cleanly near "${node.text.slice(0, 40)}"`);
  }
  switch (node.type) {
    case "command":
      readCommand(node, analysis);
      break;
    case "declaration_command":
    case "unset_command":
      readDeclaration(node, analysis);
      break;
    case "file_redirect":
      readRedirect(node, analysis);
      break;
    case "variable_assignment": {
      const parent = node.parent;
      const name = node.childForFieldName("name")?.text ?? "";
      if (parent?.type !== "command" && parent?.type !== "declaration_command" && hijackingVariables.test(name)) {
        analysis.unsure.push(`the assignment ${name}=… changes what later commands run`);
      }
      break;
    }
    case "function_definition":
      analysis.unsure.push(`the function ${node.childForFieldName("name")?.text ?? ""} defined here changes what later names run`);
      break;
    case "arithmetic_expansion":
    case "arithmetic_command":
      if (hasDescendant(node, (child) => child.type === "command_substitution" || child.type === "process_substitution" || child.type === "subscript")) {
        analysis.unsure.push("arithmetic expansion with a substitution inside");
      }
      break;
    default:
      break;
  }
}

function hasDescendant(node: ShellNode, test: (node: ShellNode) => boolean): boolean {
  for (const child of named(node)) {
    if (test(child) || hasDescendant(child, test)) return true;
  }
  return false;
}

export function analyzeShell(text: string): ShellAnalysis {
  const analysis: ShellAnalysis = { commands: [], redirections: [], unsure: [] };
  const unusual = unusualCharacters.exec(text);
  if (unusual !== null) {
    const code = unusual[0].codePointAt(0) ?? 0;
    analysis.unsure.push(`an unusual separator or hidden character (U+${code.toString(16).toUpperCase().padStart(4, "0")})`);
  }
  if (cairnVariable.test(text)) analysis.unsure.push("it touches CAIRN_COMMAND_TOKEN, which cairn uses to end what the command leaves running");
  const { tree, root } = parseShellSync(text);
  try {
    if (root.hasError) analysis.unsure.push("the shell text has syntax errors");
    walkTree(tree, analysis);
    for (const command of analysis.commands) {
      const name = command.words[0];
      if (name === undefined) continue;
      if (name.dynamic) analysis.unsure.push(`the command name ${name.text} is computed when it runs`);
      else if (name.brace || name.glob) analysis.unsure.push(`the command name ${name.text} is expanded when it runs`);
      for (const word of command.words) {
        if (word.brace && word.dynamic) analysis.unsure.push(`brace expansion with a substitution (${word.text})`);
      }
    }
  } finally {
    tree.delete();
  }
  return analysis;
}
