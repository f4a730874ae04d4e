// A tiny MCP server over stdio for tests: its tool `book_table` asks the user for the booking's
// details (elicitation, form mode) while it runs, and returns what it got back.
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
await server.connect(new StdioServerTransport());
