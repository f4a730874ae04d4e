/**
 * Brace expansion as bash does it for literal words (`secret.{txt,md}`,
 * `a{1..3}`, nested `{a,b{c,d}}`), so a command naming files through braces
 * is checked against the files it really names. Capped: a word that would
 * expand to more names than the cap yields the names up to it.
 */
const cap = 512;

function findGroup(text: string): { start: number; end: number; parts: string[] } | undefined {
  for (let start = 0; start < text.length; start += 1) {
    if (text[start] === "\\") {
      start += 1;
      continue;
    }
    if (text[start] !== "{") continue;
    let depth = 0;
    const parts: string[] = [];
    let current = "";
    for (let index = start; index < text.length; index += 1) {
      const character = text[index];
      if (character === "\\") {
        current += character + (text[index + 1] ?? "");
        index += 1;
        continue;
      }
      if (character === "{") {
        depth += 1;
        if (depth === 1) continue;
      } else if (character === "}") {
        depth -= 1;
        if (depth === 0) {
          parts.push(current);
          if (parts.length > 1) return { start, end: index, parts };
          const range = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])$/.exec(parts[0] ?? "");
          if (range !== null) return { start, end: index, parts: rangeParts(range[1] ?? "", range[2] ?? "") };
          break;
        }
      } else if (character === "," && depth === 1) {
        parts.push(current);
        current = "";
        continue;
      }
      current += character;
    }
  }
  return undefined;
}

function rangeParts(from: string, to: string): string[] {
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const step = start <= end ? 1 : -1;
  const parts: string[] = [];
  for (let value = start; parts.length < cap; value += step) {
    parts.push(numeric ? String(value) : String.fromCharCode(value));
    if (value === end) break;
  }
  return parts;
}

export function expandBraces(text: string): string[] {
  const group = findGroup(text);
  if (group === undefined) return [text];
  const prefix = text.slice(0, group.start);
  const suffix = text.slice(group.end + 1);
  const result: string[] = [];
  for (const part of group.parts) {
    for (const expanded of expandBraces(prefix + part + suffix)) {
      result.push(expanded);
      if (result.length >= cap) return result;
    }
  }
  return result;
}
