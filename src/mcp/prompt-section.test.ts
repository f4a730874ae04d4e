import { describe, expect, it } from "vitest";
import { buildMcpPromptSection } from "./prompt-section.js";
import type { PromptServer } from "./prompt-section.js";

const server: PromptServer = {
  name: "weather",
  instructions: "Use metric units.",
  tools: [
    {
      name: "forecast",
      description: "Forecast for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
  resources: [{ uri: "weather://stations", name: "stations", mimeType: "application/json" }],
  templates: [{ uriTemplate: "weather://city/{name}", name: "city", description: "Current weather of a city" }],
};

describe("MCP prompt section", () => {
  it("xml protocol: lists each connected server's tools with their schema, resources and templates", () => {
    const text = buildMcpPromptSection({ protocol: "xml", connected: [server], unavailable: ["github"] });
    expect(text).toContain("use_mcp_tool");
    expect(text).toContain(
      '## weather\n\n### Instructions from the server\nUse metric units.\n\n### Tools\n- forecast: Forecast for a city\n  Input schema: {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}',
    );
    expect(text).toContain("### Resource templates\n- weather://city/{name} (city): Current weather of a city");
    expect(text).toContain("### Resources\n- weather://stations (stations): application/json");
    expect(text).toContain("Configured but not connected (their tools cannot be used now): github");
  });

  it("native protocol: names the native tools instead of repeating their schemas", () => {
    const text = buildMcpPromptSection({ protocol: "native", connected: [server], unavailable: [] });
    expect(text).toContain("Tools: mcp__weather__forecast");
    expect(text).not.toContain("Input schema");
    expect(text).not.toContain("use_mcp_tool");
    expect(text).toContain("access_mcp_resource");
    expect(text).toContain("weather://city/{name}");
  });

  it("is empty without servers, and says so when none is connected", () => {
    expect(buildMcpPromptSection({ protocol: "xml", connected: [], unavailable: [] })).toBe("");
    expect(buildMcpPromptSection({ protocol: "xml", connected: [], unavailable: ["a"] })).toContain("No MCP server is connected right now.");
  });
});
