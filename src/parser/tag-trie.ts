/**
 * Tags as a trie read one character at a time. At a `<` the parser follows
 * the characters after it down the trie of the tags that matter where it is:
 * most `<` in prose (`a < b`, `Array<string>`, `<div>`) leave the trie at the
 * first or second character, with nothing sliced, hashed or allocated; and a
 * tag cut by the end of a chunk is held as the node reached, so the next chunk
 * goes on from there instead of reading the held characters again.
 */

export interface Tag {
  readonly closing: boolean;
  readonly name: string;
}

export interface TagNode {
  /** The characters from the `<` to here: given back when they turn out not to be a tag. */
  readonly text: string;
  /** Set on the node just after a tag's `>`: the tag read. */
  readonly tag: Tag | undefined;
  /**
   * The UTF-16 code units that can come next, and the node after each: few
   * per node (but after `<`, one per name's first letter), so a scan of a
   * small array, faster than a map's lookup.
   */
  readonly codes: readonly number[];
  readonly children: readonly TagNode[];
}

interface BuiltNode extends TagNode {
  readonly codes: number[];
  readonly children: TagNode[];
}

function childOf(node: TagNode, code: number): TagNode | undefined {
  const codes = node.codes;
  for (let index = 0; index < codes.length; index += 1) if (codes[index] === code) return node.children[index];
  return undefined;
}

function copyOf(node: TagNode): BuiltNode {
  return { text: node.text, tag: node.tag, codes: [...node.codes], children: [...node.children] };
}

/** The text of a tag: `<name>` or `</name>`. */
export function tagText(tag: Tag): string {
  return `${tag.closing ? "</" : "<"}${tag.name}>`;
}

/**
 * The node after `<` of a trie of `tags` and of the tags of `base` (a node
 * after `<` too). The nodes of `base` are shared, not changed: those on the
 * way to an added tag are copied.
 */
export function tagTrie(tags: readonly Tag[], base?: TagNode): TagNode {
  const owned = new Set<TagNode>();
  const own = (node: BuiltNode): BuiltNode => {
    owned.add(node);
    return node;
  };
  const root = own(base === undefined ? { text: "<", tag: undefined, codes: [], children: [] } : copyOf(base));
  for (const tag of tags) {
    const text = tagText(tag);
    let node: BuiltNode = root;
    for (let index = 1; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      const at = node.codes.indexOf(code);
      const child = node.children[at];
      if (child === undefined) {
        const added = own({ text: text.slice(0, index + 1), tag: index === text.length - 1 ? tag : undefined, codes: [], children: [] });
        node.codes.push(code);
        node.children.push(added);
        node = added;
      } else {
        const ownChild = owned.has(child) ? (child as BuiltNode) : own(copyOf(child));
        node.children[at] = ownChild;
        node = ownChild;
      }
    }
  }
  return root;
}

/**
 * Follows `text` from index `from` down from `node`. Returns undefined when
 * a character leaves the trie (no tag here), the node after a tag's `>` when
 * one is complete (its `tag` set; the tag ends at `from + node.text.length -
 * start.text.length`), or, when the text ends first, the node reached (its
 * `tag` unset): what was read may still become a tag.
 */
export function followTag(start: TagNode, text: string, from: number): TagNode | undefined {
  let node = start;
  for (let index = from; index < text.length; index += 1) {
    const next = childOf(node, text.charCodeAt(index));
    if (next === undefined) return undefined;
    if (next.tag !== undefined) return next;
    node = next;
  }
  return node;
}
