/**
 * Reading and writing workspace files without damaging them: binary
 * detection, encodings kept as found (UTF-8, UTF-8 with BOM, or bytes that
 * are not UTF-8, kept byte for byte as Latin-1). Writes: race-free-write.ts.
 */
import { extname } from "node:path";

export type TextEncodingKind = "utf8" | "utf8-bom" | "latin1";

export interface DecodedText {
  text: string;
  encoding: TextEncodingKind;
}

const binaryExtensions = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".bmp",
  ".ico",
  ".pdf",
  ".zip",
  ".gz",
  ".tgz",
  ".bz2",
  ".xz",
  ".7z",
  ".rar",
  ".jar",
  ".class",
  ".exe",
  ".dll",
  ".so",
  ".dylib",
  ".o",
  ".a",
  ".wasm",
  ".mp3",
  ".mp4",
  ".mov",
  ".avi",
  ".woff",
  ".woff2",
  ".ttf",
  ".otf",
  ".sqlite",
  ".db",
  ".pyc",
]);

export function looksBinary(path: string, content: Buffer): boolean {
  if (binaryExtensions.has(extname(path).toLowerCase())) return true;
  const sample = content.subarray(0, 8192);
  return sample.includes(0);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeText(content: Buffer): DecodedText {
  const hasBom = content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
  const body = hasBom ? content.subarray(3) : content;
  try {
    return { text: strictUtf8.decode(body), encoding: hasBom ? "utf8-bom" : "utf8" };
  } catch {
    return { text: content.toString("latin1"), encoding: "latin1" };
  }
}

export function encodeText(text: string, encoding: TextEncodingKind): Buffer {
  if (encoding === "latin1") {
    // Characters Latin-1 cannot hold would be lost: save as UTF-8 instead.
    if (/[^\u0000-\u00ff]/.test(text)) return Buffer.from(text, "utf8");
    return Buffer.from(text, "latin1");
  }
  const body = Buffer.from(text, "utf8");
  return encoding === "utf8-bom" ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
