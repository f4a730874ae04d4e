import { describe, expect, it } from "vitest";
import { useScriptedServer } from "../test-support/scripted-server-fixture.js";
import type { Chunk } from "../types.js";
import { MockProvider } from "./mock-provider.js";
import type { Scenario } from "./scenario.js";

const scenario: Scenario = {
  turns: [{ text: "main 0" }, { text: "main 1" }],
  routes: [{ bodyIncludes: "SUMMARISE", turns: [{ text: "routed 0" }] }],
};

const scripted = useScriptedServer();

async function text(stream: AsyncIterable<Chunk>): Promise<string> {
  let result = "";
  for await (const chunk of stream) if (chunk.type === "text") result += chunk.text;
  return result;
}

describe("scenario routes (scripted requests that come at unpredictable times, e.g. summary requests)", () => {
  it("the server answers a matching request from the route's turns without using up a main turn", async () => {
    const server = await scripted.start(scenario);
    const post = (system: string) => fetch(`${scripted.server?.url}/v1/messages`, { method: "POST", body: JSON.stringify({ model: "m", stream: true, system, messages: [] }) }).then((response) => response.text());
    expect(await post("plain")).toContain("main 0");
    expect(await post("please SUMMARISE this")).toContain("routed 0");
    expect(await post("plain")).toContain("main 1");
    expect(await post("SUMMARISE again")).toContain("route 0 has 1 turns but this is its request 2");
    expect(server.requests.map((request) => [request.route, request.index])).toEqual([
      [undefined, 0],
      [0, 0],
      [undefined, 1],
      [0, 1],
    ]);
  });

  it("the in-process MockProvider routes the same way", async () => {
    const provider = new MockProvider({ scenario });
    const signal = new AbortController().signal;
    const ask = (systemPrompt: string) => text(provider.createMessage({ systemPrompt, messages: [], signal }));
    expect(await ask("plain")).toBe("main 0");
    expect(await ask("SUMMARISE")).toBe("routed 0");
    expect(await ask("plain")).toBe("main 1");
  });
});
