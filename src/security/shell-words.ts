/**
 * One shell word as far as a static reading can know it: its text when no
 * expansion is involved, otherwise marked dynamic (and, for paths, the best
 * static guess: `~` and `$HOME` are resolved, nothing else).
 */
import { homedir } from "node:os";
import type { ShellNode } from "./shell-parser.js";

export interface ShellWord {
  /** The word after quote removal; for dynamic words, the raw source text. */
  text: string;
  /** Contains an expansion or substitution whose value is unknown before running. */
  dynamic: boolean;
  /** Unquoted glob characters (`*`, `?`, `[`) that the shell would expand. */
  glob: boolean;
  /** Unquoted brace expansion (`{a,b}`, `{1..3}`). */
  brace: boolean;
  /** The path the word names when that can be known (`~` and `$HOME` expanded). */
  path?: string;
}

function unescapeUnquoted(text: string): string {
  return text.replace(/\\(.)/gs, (_, character: string) => (character === "\n" ? "" : character));
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, character: string) => (character === "\n" ? "" : character));
}

const homeVariables = new Set(["$HOME", "${HOME}"]);

function staticWord(text: string, options: { glob?: boolean; brace?: boolean } = {}): ShellWord {
  return { text, dynamic: false, glob: options.glob ?? false, brace: options.brace ?? false, path: text };
}

function dynamicWord(raw: string): ShellWord {
  return { text: raw, dynamic: true, glob: false, brace: false };
}

function unquotedWord(raw: string): ShellWord {
  const text = unescapeUnquoted(raw);
  const glob = /(^|[^\\])[*?[]/.test(raw);
  const brace = /(^|[^\\])\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(raw);
  const word = staticWord(text, { glob, brace });
  if (raw === "~" || raw.startsWith("~/")) word.path = homedir() + text.slice(1);
  return word;
}

/** Reads a word-like node (argument, command name, redirect target). */
export function readWord(node: ShellNode): ShellWord {
  switch (node.type) {
    case "command_name": {
      const child = node.namedChild(0);
      return child === null ? staticWord(node.text) : readWord(child);
    }
    case "word":
      return unquotedWord(node.text);
    case "number":
      return staticWord(node.text);
    case "raw_string":
      return staticWord(node.text.slice(1, -1));
    case "string": {
      const expands = node.namedChildren.some((child) => child !== null && child.type !== "string_content");
      if (expands) return dynamicWord(node.text);
      return staticWord(unescapeDoubleQuoted(node.text.slice(1, -1)));
    }
    case "concatenation": {
      const parts = node.namedChildren.filter((child): child is ShellNode => child !== null).map(readWord);
      // `{` `a,b` `}` arrive as separate words: the brace check needs the whole raw text.
      const brace = /(^|[^\\])\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(node.text);
      const first = node.namedChild(0);
      if (parts.every((part) => !part.dynamic)) {
        const text = parts.map((part) => part.text).join("");
        const word = staticWord(text, { glob: parts.some((part) => part.glob), brace });
        if (first?.type === "word" && (first.text === "~" || first.text.startsWith("~/"))) word.path = homedir() + text.slice(1);
        return word;
      }
      // `$HOME/.ssh/x` and `"$HOME"/x`: the only expansion resolved statically.
      if (first !== null && homeVariables.has(first.text) && parts.slice(1).every((part) => !part.dynamic)) {
        const rest = parts
          .slice(1)
          .map((part) => part.text)
          .join("");
        return { ...dynamicWord(node.text), brace, path: homedir() + rest };
      }
      return { ...dynamicWord(node.text), brace };
    }
    case "simple_expansion":
    case "expansion":
      if (homeVariables.has(node.text)) return { ...dynamicWord(node.text), path: homedir() };
      return dynamicWord(node.text);
    default:
      return dynamicWord(node.text);
  }
}
