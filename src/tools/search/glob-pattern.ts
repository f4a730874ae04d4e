/**
 * A small glob matcher for `file_pattern` in the JS search fallback: `*`, `**`,
 * `?`, `{a,b}` and `[...]`. Like ripgrep's --glob, a pattern without a slash is
 * matched against the file name alone.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = "";
  let braceDepth = 0;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] ?? "";
    if (character === "*") {
      if (pattern[index + 1] === "*") {
        index++;
        if (pattern[index + 1] === "/") {
          index++;
          source += "(?:.*/)?";
        } else {
          source += ".*";
        }
      } else {
        source += "[^/]*";
      }
    } else if (character === "?") source += "[^/]";
    else if (character === "{") {
      braceDepth++;
      source += "(?:";
    } else if (character === "}" && braceDepth > 0) {
      braceDepth--;
      source += ")";
    } else if (character === "," && braceDepth > 0) source += "|";
    else if (character === "[") {
      const close = pattern.indexOf("]", index + 1);
      if (close < 0) source += "\\[";
      else {
        source += `[${pattern
          .slice(index + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        index = close;
      }
    } else source += character.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

export function matchesGlob(pattern: string, relativePath: string): boolean {
  const expression = globToRegExp(pattern);
  if (!pattern.includes("/")) return expression.test(relativePath.split("/").pop() ?? relativePath);
  return expression.test(relativePath);
}
