import { describe, expect, it } from "vitest";
import { convertResourceResult, convertToolResult } from "./results.js";

describe("MCP result conversion", () => {
  it("keeps text and images, and turns embedded resources and links into text", () => {
    const result = convertToolResult({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "aGk=", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "inside" } },
        { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAAA" } },
        { type: "resource_link", uri: "file:///c.txt", name: "c" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
      isError: true,
    });
    expect(result).toEqual({
      isError: true,
      content: [
        { type: "text", text: "hello" },
        { type: "image", mediaType: "image/png", data: "aGk=" },
        { type: "text", text: "[Resource file:///a.txt (text/plain)]\ninside" },
        { type: "text", text: "[Resource file:///b.bin: binary application/octet-stream, 3 bytes, not shown]" },
        { type: "text", text: "[Resource link: file:///c.txt (c)]" },
        { type: "text", text: "[Audio (audio/wav, 3 bytes) omitted: not supported]" },
      ],
    });
  });

  it("caps text with a note saying how much was shown", () => {
    const result = convertToolResult(
      {
        content: [
          { type: "text", text: "a".repeat(80) },
          { type: "text", text: "b".repeat(80) },
        ],
      },
      { maxTextChars: 100, maxImageChars: 10 },
    );
    expect(result.content).toEqual([
      { type: "text", text: "a".repeat(80) },
      { type: "text", text: "b".repeat(20) },
      { type: "text", text: "[Output truncated: 100 of 160 characters shown. Ask for less data if you need the rest.]" },
    ]);
  });

  it("replaces an image over the limit by a note", () => {
    const result = convertToolResult({ content: [{ type: "image", data: "A".repeat(40), mimeType: "image/png" }] }, { maxTextChars: 100, maxImageChars: 10 });
    expect(result.content).toEqual([{ type: "text", text: "[Image: image (image/png, 30 bytes) omitted: larger than the limit]" }]);
  });

  it("falls back to structured content and says when there is nothing", () => {
    expect(convertToolResult({ content: [], structuredContent: { sum: 3 } }).content).toEqual([{ type: "text", text: '{\n  "sum": 3\n}' }]);
    expect(convertToolResult({ content: [] }).content).toEqual([{ type: "text", text: "(the tool returned no content)" }]);
  });

  it("decodes text blobs and keeps image blobs of resources", () => {
    const result = convertResourceResult({
      contents: [
        { uri: "demo://x", mimeType: "application/json", blob: Buffer.from('{"a":1}').toString("base64") },
        { uri: "demo://y", mimeType: "image/gif", blob: "R0lG" },
      ],
    });
    expect(result.content).toEqual([
      { type: "text", text: '[Resource demo://x (application/json)]\n{"a":1}' },
      { type: "image", mediaType: "image/gif", data: "R0lG" },
    ]);
  });
});
