/** The built-in tools, in the order the prompt presents them. */
import { executeCommandTool } from "./builtin/execute-command.js";
import { listFilesTool } from "./builtin/list-files.js";
import { readFileTool } from "./builtin/read-file.js";
import { replaceInFileTool } from "./builtin/replace-in-file.js";
import { searchFilesTool } from "./builtin/search-files.js";
import { writeToFileTool } from "./builtin/write-to-file.js";
import type { ToolDefinition } from "./tool-definition.js";

export const builtinTools: ToolDefinition[] = [
  executeCommandTool,
  readFileTool,
  writeToFileTool,
  replaceInFileTool,
  searchFilesTool,
  listFilesTool,
];
