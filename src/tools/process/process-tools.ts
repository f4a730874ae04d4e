/** read_process_output and stop_process (issue #31): the model's handles on its background processes. */
import { invalidParameter, success, toolError } from "../responses.js";
import type { ToolDefinition, ToolRuntime } from "../tool-definition.js";
import type { BackgroundProcessInfo } from "./process-table.js";
import { describeProcessEnd } from "./process-text.js";

const processIdParameter = { name: "process_id", required: true, description: "The id execute_command gave the process (p1, p2, ...).", usage: "p1" };

function find(runtime: ToolRuntime, id: string): BackgroundProcessInfo | string {
  const port = runtime.options.processes;
  if (port === undefined) return "there are no background processes here.";
  const found = port.table.get(id);
  if (found !== undefined) return found;
  const known = port.table.list().map((process) => process.id);
  return `there is no background process "${id}"${known.length === 0 ? " (none was started in this run of the task; processes of an earlier run were ended with it)" : ` (known: ${known.join(", ")})`}.`;
}

function stateLine(process: BackgroundProcessInfo): string {
  return process.state === "running" ? `Process ${process.id} (${process.command}) ${describeProcessEnd(process)} and is still running.` : `Process ${process.id} (${process.command}) ${describeProcessEnd(process)}.`;
}

export const readProcessOutputTool: ToolDefinition = {
  name: "read_process_output",
  description:
    "Read the output of a background process (started with execute_command and background true): what it printed since you last read it, " +
    "or its last lines. Also says whether it still runs, or how it ended and its exit code.",
  parameters: [
    processIdParameter,
    { name: "lines", required: false, type: "integer", description: "Give the last N lines of its output instead of what is new since the last read.", usage: "number of lines (optional)" },
  ],
  readOnly: true,
  isAvailable: (options) => options.processes !== undefined,
  describePartial: (params) => ({ text: `Read the output of ${params["process_id"] ?? ""}` }),
  async execute(params, runtime) {
    const found = find(runtime, params["process_id"] ?? "");
    if (typeof found === "string") return toolError(found);
    const table = runtime.options.processes?.table;
    if (table === undefined) return toolError("there are no background processes here.");
    const linesText = params["lines"]?.trim();
    let body: string;
    if (linesText !== undefined && linesText !== "") {
      const lines = Number(linesText);
      if (!Number.isInteger(lines) || lines <= 0) return invalidParameter({ tool: "read_process_output", parameter: "lines", problem: "it must be a positive whole number." });
      const text = table.readLast(found.id, lines) ?? "";
      body = text === "" ? "It printed no output yet." : `Its last ${lines} lines:\n${text}`;
    } else {
      const read = table.readNew(found.id) ?? { text: "", omitted: 0 };
      const note = read.omitted > 0 ? `[${read.omitted} earlier characters omitted; use lines to see the end only]\n` : "";
      body = read.text === "" ? "No new output since the last read." : `New output:\n${note}${read.text}`;
    }
    const now = table.get(found.id) ?? found;
    runtime.context.say("tool", `${now.id}: ${now.command}`, { partial: false, meta: { tool: "read_process_output", processId: now.id } });
    return success(`${stateLine(now)}\n${body}`);
  },
};

export const stopProcessTool: ToolDefinition = {
  name: "stop_process",
  description: "End a background process (started with execute_command and background true), with everything it started. Returns its last lines of output.",
  parameters: [processIdParameter],
  readOnly: false,
  isAvailable: (options) => options.processes !== undefined,
  describePartial: (params) => ({ text: `Stop ${params["process_id"] ?? ""}` }),
  async execute(params, runtime) {
    const found = find(runtime, params["process_id"] ?? "");
    if (typeof found === "string") return toolError(found);
    const table = runtime.options.processes?.table;
    if (table === undefined) return toolError("there are no background processes here.");
    const wasRunning = found.state === "running";
    const stopped = (await table.stop(found.id)) ?? found;
    const tail = table.readLast(found.id, 10) ?? "";
    runtime.context.say("tool", `${stopped.id}: ${stopped.command}`, { partial: false, meta: { tool: "stop_process", processId: stopped.id } });
    const head = wasRunning ? `Process ${stopped.id} (${stopped.command}) ${describeProcessEnd(stopped)}, with everything it started.` : `${stateLine(stopped)} Nothing to stop.`;
    return success(`${head}${tail === "" ? "" : `\nIts last lines:\n${tail}`}`);
  },
};
