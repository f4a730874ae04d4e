export type { Block, TextBlock, ToolUseBlock, ReasoningBlock } from "./parser/types.js";
