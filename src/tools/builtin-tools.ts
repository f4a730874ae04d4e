/** The built-in tools, in the order the prompt presents them. */
import { accessMcpResourceTool } from "./builtin/access-mcp-resource.js";
import { askFollowupQuestionTool } from "./builtin/ask-followup-question.js";
import { attemptCompletionTool } from "./builtin/attempt-completion.js";
import { executeCommandTool } from "./builtin/execute-command.js";
import { listCodeDefinitionNamesTool } from "./builtin/list-code-definition-names.js";
import { listFilesTool } from "./builtin/list-files.js";
import { lspTool } from "./builtin/lsp.js";
import { newTaskTool } from "./builtin/new-task.js";
import { planModeRespondTool } from "./builtin/plan-mode-respond.js";
import { readFileTool } from "./builtin/read-file.js";
import { replaceInFileTool } from "./builtin/replace-in-file.js";
import { searchFilesTool } from "./builtin/search-files.js";
import { useMcpToolTool } from "./builtin/use-mcp-tool.js";
import { webFetchTool } from "./builtin/web-fetch.js";
import { writeToFileTool } from "./builtin/write-to-file.js";
import { updateChecklistTool } from "./builtin/update-checklist.js";
import type { ToolDefinition } from "./tool-definition.js";
import { readProcessOutputTool, stopProcessTool } from "./process/process-tools.js";

export const builtinTools: ToolDefinition[] = [
  executeCommandTool,
  readProcessOutputTool,
  stopProcessTool,
  readFileTool,
  writeToFileTool,
  replaceInFileTool,
  searchFilesTool,
  listFilesTool,
  listCodeDefinitionNamesTool,
  lspTool,
  webFetchTool,
  useMcpToolTool,
  accessMcpResourceTool,
  askFollowupQuestionTool,
  attemptCompletionTool,
  planModeRespondTool,
  newTaskTool,
  updateChecklistTool,
];
