/**
 * Turns an HTML page into readable Markdown for the model: scripts, styles
 * and navigation chrome dropped, headings, links, lists, code and tables kept.
 * A small converter on purpose: pages only need to be readable, not faithful.
 */

const namedEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", mdash: "—", ndash: "–", hellip: "…", copy: "©", laquo: "«", raquo: "»" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return safeCodePoint(parseInt(name.slice(2), 16)) ?? whole;
    if (name.startsWith("#")) return safeCodePoint(parseInt(name.slice(1), 10)) ?? whole;
    return namedEntities[name.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(value: number): string | undefined {
  return Number.isFinite(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : undefined;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match === null ? undefined : decodeEntities(match[1] ?? match[2] ?? match[3] ?? "");
}

function absolute(url: string, base: string | undefined): string {
  if (base === undefined) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "");
}

export function htmlToMarkdown(html: string, baseUrl?: string): { title: string | undefined; markdown: string } {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch ? decodeEntities(stripTags(titleMatch[1] ?? "")).trim() || undefined : undefined;
  let body = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style|noscript|svg|template|iframe|head|nav|footer|form)\b[\s\S]*?<\/\1\s*>/gi, "");
  const main = /<(main|article)\b[^>]*>([\s\S]*?)<\/\1\s*>/i.exec(body);
  if (main) body = main[2] ?? body;
  // Keep preformatted text away from whitespace collapsing.
  const preserved: string[] = [];
  body = body.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, inner: string) => {
    preserved.push("\n\n```\n" + decodeEntities(stripTags(inner)).replace(/\n+$/, "") + "\n```\n\n");
    return `\u0000${preserved.length - 1}\u0000`;
  });
  body = body
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_, level: string, inner: string) => `\n\n${"#".repeat(Number(level))} ${inner}\n\n`)
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_, attributes: string, inner: string) => {
      const href = attribute(`<a ${attributes}>`, "href");
      const text = inner.replace(/\s+/g, " ").trim();
      if (href === undefined || href.startsWith("#") || href.startsWith("javascript:")) return text;
      return text === "" ? "" : `[${text}](${absolute(href, baseUrl)})`;
    })
    .replace(/<img\b[^>]*>/gi, (tag) => {
      const alt = attribute(tag, "alt") ?? "";
      const source = attribute(tag, "src");
      return source === undefined || alt === "" ? "" : `![${alt}](${absolute(source, baseUrl)})`;
    })
    .replace(/<(strong|b)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, "**$2**")
    .replace(/<(em|i)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, "*$2*")
    .replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, "`$1`")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/li\s*>/gi, "")
    .replace(/<tr\b[^>]*>/gi, "\n|")
    .replace(/<\/t[dh]\s*>/gi, " |")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<hr\b[^>]*>/gi, "\n\n---\n\n")
    .replace(/<\/?(p|div|section|article|main|header|aside|table|thead|tbody|blockquote|dl|dt|dd|figure|figcaption|ul|ol)\b[^>]*>/gi, "\n\n")
    .replace(/<[^>]*>/g, "");
  body = decodeEntities(body)
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f\v]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  // Entity decoding cannot produce the NUL markers; restore the preformatted blocks.
  body = body
    .replace(/\u0000(\d+)\u0000/g, (_, index: string) => preserved[Number(index)] ?? "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown: body };
}
