import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMcpNativeToolName, nativeToolName, nativeToolNameLimit, parseNativeToolName } from "./native-names.js";

const apiName = /^[a-zA-Z0-9_-]+$/;

describe("native tool names", () => {
  it("uses the readable direct form when it fits", () => {
    expect(nativeToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(parseNativeToolName("mcp__github__create_issue")).toEqual({ server: "github", tool: "create_issue" });
    expect(nativeToolName("my-server", "a__b")).toBe("mcp__my-server__a__b");
    expect(parseNativeToolName("mcp__my-server__a__b")).toEqual({ server: "my-server", tool: "a__b" });
  });

  it("hashes long names and names with other characters, and resolves them from the known tools", () => {
    const server = "a-server-with-a-really-quite-long-name-for-testing";
    const tool = "and_an_equally_long_tool_name_that_overflows_the_limit";
    const name = nativeToolName(server, tool);
    expect(name.length).toBeLessThanOrEqual(nativeToolNameLimit);
    expect(name).toMatch(apiName);
    expect(name.startsWith("mcph_")).toBe(true);
    expect(parseNativeToolName(name)).toBeUndefined();
    const known = [
      { server, tool: `${tool}_2` },
      { server, tool },
    ];
    expect(parseNativeToolName(name, known)).toEqual({ server, tool });

    const dotted = nativeToolName("my.server", "read file");
    expect(dotted).toMatch(/^mcph_[0-9a-f]{10}_my_server__read_file$/);
    expect(parseNativeToolName(dotted, [{ server: "my.server", tool: "read file" }])).toEqual({ server: "my.server", tool: "read file" });
  });

  it("never lets two pairs share a name even when they look alike", () => {
    expect(nativeToolName("a_", "b")).not.toBe(nativeToolName("a", "_b"));
    expect(nativeToolName("a__b", "c")).not.toBe(nativeToolName("a", "b__c"));
    expect(parseNativeToolName(nativeToolName("a", "_b"))).toEqual({ server: "a", tool: "_b" });
  });

  it("round-trips any server and tool within the API limits", () => {
    const part = fc.string({ minLength: 1, maxLength: 80, unit: fc.constantFrom("a", "Z", "0", "_", "-", ".", " ", "é", "/") });
    fc.assert(
      fc.property(part, part, (server, tool) => {
        const name = nativeToolName(server, tool);
        expect(name.length).toBeLessThanOrEqual(nativeToolNameLimit);
        expect(name).toMatch(apiName);
        expect(isMcpNativeToolName(name)).toBe(true);
        expect(parseNativeToolName(name, [{ server, tool }])).toEqual({ server, tool });
      }),
      { numRuns: 500 },
    );
  });

  it("does not claim names that are not MCP tools", () => {
    expect(parseNativeToolName("read_file")).toBeUndefined();
    expect(parseNativeToolName("mcp__onlyserver")).toBeUndefined();
    expect(isMcpNativeToolName("execute_command")).toBe(false);
  });
});
