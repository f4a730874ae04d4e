export type { Block, TextBlock, ToolUseBlock, ReasoningBlock } from "./parser/types.js";
export { AssistantMessageParser, parseAssistantMessage } from "./parser/assistant-message-parser.js";
export type { ParserOptions } from "./parser/assistant-message-parser.js";
export { KNOWN_TOOL_NAMES, KNOWN_PARAMETER_NAMES, VERBATIM_PARAMETER_NAMES } from "./parser/names.js";
export { JsonEventReader, JsonEventFormatError, readJsonEvents, type JsonMessage } from "./ui/headless/json-events-reader.js";
export * from "./sdk/index.js";
