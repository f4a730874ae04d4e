/**
 * Turns what an MCP server returns into cairn content the model can read: text,
 * images, embedded resources as text, everything capped in size with a note.
 */
import type { ContentBlock, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { ImageContent, TextContent } from "../llm/types.js";
import type { McpCallResult } from "../tools/mcp-port.js";
import { capTextParts, defaultMaxResultChars } from "../tools/output-cap.js";

export interface ResultLimits {
  /** Total characters of text passed to the model. */
  maxTextChars: number;
  /** Base64 characters per image; larger images are replaced by a note. */
  maxImageChars: number;
}

export const defaultResultLimits: ResultLimits = { maxTextChars: defaultMaxResultChars, maxImageChars: 5_000_000 };

type Part = TextContent | ImageContent;

function text(value: string): TextContent {
  return { type: "text", text: value };
}

function isTextMime(mimeType: string | undefined): boolean {
  if (mimeType === undefined) return false;
  return mimeType.startsWith("text/") || /json|xml|yaml|javascript|typescript/.test(mimeType);
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function imagePart(data: string, mimeType: string, limits: ResultLimits, label: string): Part {
  if (data.length > limits.maxImageChars) {
    return text(`[${label}: image (${mimeType}, ${approximateBytes(data)} bytes) omitted: larger than the limit]`);
  }
  return { type: "image", mediaType: mimeType, data };
}

type ResourceContents = ReadResourceResult["contents"][number];

function resourcePart(resource: ResourceContents, limits: ResultLimits): Part {
  if ("text" in resource && typeof resource.text === "string") {
    return text(`[Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}]\n${resource.text}`);
  }
  const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
  const mimeType = resource.mimeType ?? "application/octet-stream";
  if (mimeType.startsWith("image/")) return imagePart(blob, mimeType, limits, `Resource ${resource.uri}`);
  if (isTextMime(mimeType)) {
    return text(`[Resource ${resource.uri} (${mimeType})]\n${Buffer.from(blob, "base64").toString("utf8")}`);
  }
  return text(`[Resource ${resource.uri}: binary ${mimeType}, ${approximateBytes(blob)} bytes, not shown]`);
}

function contentPart(block: ContentBlock, limits: ResultLimits): Part {
  switch (block.type) {
    case "text":
      return text(block.text);
    case "image":
      return imagePart(block.data, block.mimeType, limits, "Image");
    case "audio":
      return text(`[Audio (${block.mimeType}, ${approximateBytes(block.data)} bytes) omitted: not supported]`);
    case "resource_link":
      return text(`[Resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}${block.description ? `: ${block.description}` : ""}]`);
    case "resource":
      return resourcePart(block.resource, limits);
  }
}

/** Cuts the text parts so their total stays within the limit, and says so (the cap custom tools share). */
function capText(parts: Part[], limits: ResultLimits): Part[] {
  return capTextParts(parts, limits.maxTextChars);
}

export function convertToolResult(
  result: {
    content?: ContentBlock[] | undefined;
    structuredContent?: Record<string, unknown> | undefined;
    isError?: boolean | undefined;
    toolResult?: unknown;
  },
  limits: ResultLimits = defaultResultLimits,
): McpCallResult {
  const parts: Part[] = (result.content ?? []).map((block) => contentPart(block, limits));
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(text(JSON.stringify(result.structuredContent, null, 2)));
  }
  if (parts.length === 0 && result.toolResult !== undefined) {
    // Servers speaking the 2024-10 protocol answer with `toolResult`.
    parts.push(text(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult, null, 2)));
  }
  if (parts.length === 0) parts.push(text("(the tool returned no content)"));
  return withFullText(parts, capText(parts, limits), result.isError === true);
}

/** The capped content for the model, and the whole text when it was cut (the task log keeps that). */
function withFullText(parts: Part[], capped: Part[], isError: boolean): McpCallResult {
  if (capped === parts) return { content: capped, isError };
  return { content: capped, isError, fullText: parts.map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`)).join("\n") };
}

export function convertResourceResult(result: ReadResourceResult, limits: ResultLimits = defaultResultLimits): McpCallResult {
  const parts = result.contents.map((resource) => resourcePart(resource, limits));
  if (parts.length === 0) parts.push(text("(the resource is empty)"));
  return withFullText(parts, capText(parts, limits), false);
}

export function errorResult(message: string): McpCallResult {
  return { content: [text(message)], isError: true };
}
