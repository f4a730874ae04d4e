/**
 * A custom tool defined in code: `lookup_ticket` gives a ticket's title from
 * a small table; the task may call it like any built-in tool.
 *
 *   node custom-tool.js <folder> <task...>
 *
 * Provider settings come from the environment, as for `cairn run`.
 */
import { startTask, tool } from "cairn";
import { z } from "zod";

const tickets: Record<string, string> = {
  "CAIRN-1": "Crash when the workspace path has spaces",
  "CAIRN-2": "Add a --quiet flag to cairn run",
  "CAIRN-3": "Document the SDK",
};

const lookupTicket = tool({
  name: "lookup_ticket",
  description: "Gives the title of a ticket of the issue tracker, by its id (e.g. CAIRN-1).",
  inputSchema: { id: z.string().describe("The ticket's id, e.g. CAIRN-1") },
  // It only reads: it runs without asking for approval.
  readOnly: true,
  run: ({ id }) => {
    const title = tickets[id.toUpperCase()];
    const result = title === undefined ? { content: `No ticket ${id}.`, isError: true } : { content: `${id}: ${title}` };
    console.log(`lookup_ticket(${id}) -> ${result.content}`);
    return result;
  },
});

const [folder, ...words] = process.argv.slice(2);
if (folder === undefined || words.length === 0) {
  console.error("usage: custom-tool <folder> <task...>");
  process.exit(2);
}

const task = startTask(words.join(" "), { cwd: folder, tools: [lookupTicket] });
try {
  for await (const event of task) {
    if (event.type === "say" && event.say === "completion_result" && !event.partial) console.log(`result: ${event.text}`);
    if (event.type === "result") {
      console.log(`${event.status} in ${event.turns} turns`);
      process.exitCode = event.exitStatus;
    }
  }
} catch (error) {
  console.error(`custom-tool: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
