/**
 * A deliberately simple, non-incremental reading of issue 2's rules, written
 * apart from the real parser so property tests can compare the two. It may be
 * slow (it re-searches freely); it only has to be obviously right.
 */
import type { Block } from "../types.js";
import { KNOWN_PARAMETER_NAMES, KNOWN_TOOL_NAMES } from "../names.js";

export interface ReferenceOptions {
  toolNames?: readonly string[];
  parameterNames?: readonly string[];
  /** True for a finished stream (SPEC T17); false reads it as still streaming (rule 6). */
  final?: boolean;
}

function trailingPrefixLength(text: string, candidates: readonly string[]): number {
  let best = 0;
  for (const candidate of candidates) {
    for (let length = 1; length < candidate.length && length <= text.length; length += 1) {
      if (text.endsWith(candidate.slice(0, length))) best = Math.max(best, length);
    }
  }
  return best;
}

function stripOneNewline(value: string): string {
  let result = value;
  if (result.startsWith("\r\n")) result = result.slice(2);
  else if (result.startsWith("\n")) result = result.slice(1);
  if (result.endsWith("\r\n")) result = result.slice(0, -2);
  else if (result.endsWith("\n")) result = result.slice(0, -1);
  return result;
}

/** The first index >= from where one of `tags` starts, and which one. */
function firstOf(text: string, from: number, tags: readonly string[]): { index: number; tag: string } | undefined {
  let found: { index: number; tag: string } | undefined;
  for (const tag of tags) {
    const index = text.indexOf(tag, from);
    if (index !== -1 && (found === undefined || index < found.index)) found = { index, tag };
  }
  return found;
}

export function referenceParse(text: string, options: ReferenceOptions = {}): Block[] {
  const tools = [...KNOWN_TOOL_NAMES, ...(options.toolNames ?? [])];
  const parameters = [...KNOWN_PARAMETER_NAMES, ...(options.parameterNames ?? [])];
  const final = options.final ?? false;
  const openings = (names: readonly string[]) => names.map((name) => `<${name}>`);
  const blocks: Block[] = [];
  let position = 0;
  let toolCount = 0;

  while (true) {
    const start = firstOf(text, position, openings(tools));
    let segment = text.slice(position, start?.index ?? text.length);
    if (start === undefined && !final) {
      segment = segment.slice(0, segment.length - trailingPrefixLength(segment, openings(tools)));
    }
    const content = segment.trim();
    if (content !== "") blocks.push({ type: "text", content, partial: start === undefined && !final });
    if (start === undefined) return blocks;

    const toolName = start.tag.slice(1, -1);
    toolCount += 1;
    const params: Record<string, string> = {};
    const block: Block = { type: "tool_use", id: `tool-${toolCount}`, name: toolName, params, partial: true };
    blocks.push(block);
    const toolClose = `</${toolName}>`;
    let cursor = start.index + start.tag.length;

    while (true) {
      const next = firstOf(text, cursor, [toolClose, ...openings(parameters)]);
      if (next === undefined) {
        block.partial = !final;
        return blocks;
      }
      if (next.tag === toolClose) {
        block.partial = false;
        position = next.index + toolClose.length;
        break;
      }
      const name = next.tag.slice(1, -1);
      const close = `</${name}>`;
      const valueStart = next.index + next.tag.length;
      const verbatim = name === "content" || name === "diff";
      const firstClose = text.indexOf(close, valueStart);
      if (firstClose === -1) {
        const raw = text.slice(valueStart);
        const shown = raw.slice(0, raw.length - trailingPrefixLength(raw, [close]));
        params[name] = verbatim ? stripOneNewline(shown) : shown.trim();
        block.partial = !final;
        return blocks;
      }
      if (!verbatim) {
        params[name] = text.slice(valueStart, firstClose).trim();
        cursor = firstClose + close.length;
        continue;
      }
      // content/diff: extend to the last own closing tag before the tool's closing tag or another parameter.
      let lastClose = firstClose;
      let scan = firstClose + close.length;
      while (true) {
        const after = firstOf(text, scan, [close, toolClose, ...openings(parameters)]);
        if (after?.tag === close) {
          lastClose = after.index;
          scan = after.index + close.length;
          continue;
        }
        params[name] = stripOneNewline(text.slice(valueStart, lastClose));
        if (after === undefined) {
          block.partial = !final;
          return blocks;
        }
        cursor = after.index;
        break;
      }
    }
  }
}
