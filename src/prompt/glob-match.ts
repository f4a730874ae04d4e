/**
 * Glob patterns of rule front matter (`paths: ["src/**\/*.ts"]`): `**` any
 * folders, `*` and `?` within one name, `{a,b}` alternatives. A pattern
 * without a slash matches a name in any folder, as in .gitignore.
 */
function toRegExp(glob: string): RegExp {
  let pattern = "";
  let braces = 0;
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] ?? "";
    if (char === "*") {
      if (glob[index + 1] === "*") {
        const slash = glob[index + 2] === "/";
        pattern += slash ? "(?:.*/)?" : ".*";
        index += slash ? 2 : 1;
      } else {
        pattern += "[^/]*";
      }
    } else if (char === "?") pattern += "[^/]";
    else if (char === "{") {
      braces += 1;
      pattern += "(?:";
    } else if (char === "}" && braces > 0) {
      braces -= 1;
      pattern += ")";
    } else if (char === "," && braces > 0) pattern += "|";
    else pattern += char.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

/** Compiled patterns: the same few globs are tested against every touched file before each request. */
const compiled = new Map<string, RegExp | null>();

function patternFor(glob: string): RegExp | null {
  let pattern = compiled.get(glob);
  if (pattern === undefined) {
    const cleaned = glob.trim().replace(/^\.\//, "").replace(/^\//, "");
    pattern = cleaned === "" ? null : toRegExp(cleaned.includes("/") ? cleaned : `**/${cleaned}`);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(glob, pattern);
  }
  return pattern;
}

export function globMatches(glob: string, relativePath: string): boolean {
  return patternFor(glob)?.test(relativePath.split("\\").join("/")) ?? false;
}
