/**
 * The tags that matter in each place of an answer, as tries (tag-trie.ts):
 * in text, the tools' opening tags; inside a tool, its closing tag and the
 * parameters' opening tags; after a `content` or `diff` value's closing tag,
 * that closing tag too; inside a value, its closing tag. Tries are built once
 * per tool or parameter and kept, and the vocabulary of the known names is
 * shared by every parser that registers no names of its own.
 */
import { KNOWN_PARAMETER_NAMES, KNOWN_TOOL_NAMES } from "./names.js";
import { tagTrie } from "./tag-trie.js";
import type { TagNode } from "./tag-trie.js";

/** The names of `lists` that can be written as a tag, each once. */
function tagNames(lists: readonly (Iterable<string> | undefined)[]): string[] {
  const names = new Set<string>();
  for (const list of lists) {
    // Options may come from plain JavaScript or configuration: skip what is not a list instead of failing.
    if (list === undefined || list === null || typeof (list as Partial<Iterable<string>>)[Symbol.iterator] !== "function") continue;
    for (const name of list as Iterable<unknown>) {
      // A name holding `<`, `>` or `/` could never be written as a tag; skip it rather than fail.
      if (typeof name === "string" && name.length !== 0 && !/[<>/]/.test(name)) names.add(name);
    }
  }
  return [...names];
}

export class TagVocabulary {
  /** After `<` in text: the tools' opening tags. */
  readonly inText: TagNode;
  private readonly parameterOpenings: TagNode;
  private readonly inTools = new Map<string, TagNode>();
  private readonly afterValues = new Map<string, TagNode>();
  private readonly inValues = new Map<string, TagNode>();

  private constructor(toolNames: readonly string[], parameterNames: readonly string[]) {
    this.inText = tagTrie(toolNames.map((name) => ({ closing: false, name })));
    this.parameterOpenings = tagTrie(parameterNames.map((name) => ({ closing: false, name })));
  }

  /** After `<` inside the tool `tool`, between parameters: its closing tag and the parameters' opening tags. */
  inTool(tool: string): TagNode {
    let node = this.inTools.get(tool);
    if (node === undefined) {
      node = tagTrie([{ closing: true, name: tool }], this.parameterOpenings);
      this.inTools.set(tool, node);
    }
    return node;
  }

  /** After `<` that follows the closing tag of a `content` or `diff` value: that tag, the tool's closing tag, the parameters' opening tags. */
  afterValue(tool: string, parameter: string): TagNode {
    // `<` is in no name: the key is unambiguous.
    const key = `${tool}<${parameter}`;
    let node = this.afterValues.get(key);
    if (node === undefined) {
      node = tagTrie([{ closing: true, name: parameter }], this.inTool(tool));
      this.afterValues.set(key, node);
    }
    return node;
  }

  /** After `<` inside the value of `parameter`: its closing tag. */
  inValue(parameter: string): TagNode {
    let node = this.inValues.get(parameter);
    if (node === undefined) {
      node = tagTrie([{ closing: true, name: parameter }]);
      this.inValues.set(parameter, node);
    }
    return node;
  }

  private static known: TagVocabulary | undefined;
  private static last: { key: string; vocabulary: TagVocabulary } | undefined;

  /** The vocabulary of the known names and those registered: shared when none are, and kept for the next parser with the same names. */
  static of(toolNames: Iterable<string> | undefined, parameterNames: Iterable<string> | undefined): TagVocabulary {
    if (toolNames === undefined && parameterNames === undefined) {
      TagVocabulary.known ??= new TagVocabulary(tagNames([KNOWN_TOOL_NAMES]), tagNames([KNOWN_PARAMETER_NAMES]));
      return TagVocabulary.known;
    }
    const tools = tagNames([KNOWN_TOOL_NAMES, toolNames]);
    const parameters = tagNames([KNOWN_PARAMETER_NAMES, parameterNames]);
    // `<` is in no name: the key is unambiguous.
    const key = `${tools.join("<")}<<${parameters.join("<")}`;
    if (TagVocabulary.last?.key !== key) TagVocabulary.last = { key, vocabulary: new TagVocabulary(tools, parameters) };
    return TagVocabulary.last.vocabulary;
  }
}
