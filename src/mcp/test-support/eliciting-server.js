// A tiny MCP server over stdio for tests: its tool `book_table` asks the user for the booking's
// details (elicitation, form mode) while it runs, and returns what it got back; `add_prompt` adds a prompt.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "eliciting", version: "1.0.0" });
server.registerTool("book_table", { description: "Books a table; asks the user for the details" }, async () => {
  const answer = await server.server.elicitInput({
    message: "Which table should I book?",
    requestedSchema: {
      type: "object",
      properties: {
        guests: { type: "integer", title: "Guests", minimum: 1 },
        seating: { type: "string", title: "Seating", enum: ["inside", "terrace"] },
        note: { type: "string", title: "Note", description: "anything the restaurant should know" },
      },
      required: ["guests", "seating"],
    },
  });
  return { content: [{ type: "text", text: `booking answer: ${JSON.stringify(answer)}` }] };
});
server.registerPrompt("welcome", { description: "Greets the guest" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "Welcome" } }] }));
// Adds a prompt while connected: the SDK tells the client that the prompt list changed.
server.registerTool("add_prompt", { description: "Adds the prompt `menu`" }, async () => {
  server.registerPrompt("menu", { description: "Today's menu" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "Soup of the day" } }] }));
  return { content: [{ type: "text", text: "added" }] };
});
await server.connect(new StdioServerTransport());
