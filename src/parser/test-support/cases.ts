/**
 * Table of parser cases (issue 2). `streaming` is what a parse of the whole
 * input gives while the answer may still be streaming (rule 6); `ended` is
 * what `end()` gives (SPEC T17). Ids are checked by their own tests (rule 7).
 */
import type { ParserOptions } from "../assistant-message-parser.js";

export interface ExpectedText {
  type: "text";
  content: string;
  partial: boolean;
}
export interface ExpectedTool {
  type: "tool_use";
  name: string;
  params: Record<string, string>;
  partial: boolean;
}
export type ExpectedBlock = ExpectedText | ExpectedTool;

export interface ParserCase {
  name: string;
  input: string;
  streaming: ExpectedBlock[];
  /** Defaults to `streaming` with every block complete. */
  ended?: ExpectedBlock[];
  options?: ParserOptions;
}

export const text = (content: string, partial = false): ExpectedText => ({ type: "text", content, partial });
export const tool = (name: string, params: Record<string, string>, partial = false): ExpectedTool => ({
  type: "tool_use",
  name,
  params,
  partial,
});

const longLine = "x".repeat(3000);
const longFile = Array.from({ length: 60 }, (_, line) => `line ${line}: ${"é".repeat(line % 7)} <div>${line}</div>`).join("\n");

export const parserCases: ParserCase[] = [
  // Rule 1: known tool opening tags start a tool anywhere; other tags are text.
  { name: "rule 1: plain text only", input: "Hello there.", streaming: [text("Hello there.", true)] },
  {
    name: "rule 1: tool after text",
    input: "Let me look.\n<read_file>\n<path>src/a.ts</path>\n</read_file>",
    streaming: [text("Let me look."), tool("read_file", { path: "src/a.ts" })],
  },
  {
    name: "rule 1: tool tag in the middle of a word",
    input: "abc<list_files><path>.</path></list_files>def",
    streaming: [text("abc"), tool("list_files", { path: "." }), text("def", true)],
  },
  {
    name: "rule 1: unknown tags are plain text",
    input: "<thinking>plan</thinking> <foo>bar</foo>",
    streaming: [text("<thinking>plan</thinking> <foo>bar</foo>", true)],
  },
  {
    name: "rule 1: a known parameter tag outside a tool is plain text",
    input: "Use <path>x</path> and <content>y</content>",
    streaming: [text("Use <path>x</path> and <content>y</content>", true)],
  },
  {
    name: "rule 1: a stray closing tool tag outside a tool is plain text",
    input: "done </read_file> here",
    streaming: [text("done </read_file> here", true)],
  },
  {
    name: "rule 1: tag with attributes or spaces is not a tool tag",
    input: '<read_file path="a"> <read_file >',
    streaming: [text('<read_file path="a"> <read_file >', true)],
  },
  {
    name: "rule 1: two tools in a row",
    input: "<read_file><path>a</path></read_file><read_file><path>b</path></read_file>",
    streaming: [tool("read_file", { path: "a" }), tool("read_file", { path: "b" })],
  },
  {
    name: "rule 1: a tool name preceded by another '<'",
    input: "a <<read_file><path>p</path></read_file>",
    streaming: [text("a <"), tool("read_file", { path: "p" })],
  },
  {
    name: "rule 1: registered tool and parameter names",
    input: "<my_tool><my_param> v </my_param><path>p</path></my_tool>",
    options: { toolNames: ["my_tool"], parameterNames: ["my_param"] },
    streaming: [tool("my_tool", { my_param: "v", path: "p" })],
  },
  {
    name: "rule 1: names are unknown unless registered",
    input: "<my_tool><my_param>v</my_param></my_tool>",
    streaming: [text("<my_tool><my_param>v</my_param></my_tool>", true)],
  },
  {
    name: "rule 1: registered name that is a prefix of a built-in one",
    input: "<read><path>p</path></read><read_file><path>q</path></read_file>",
    options: { toolNames: ["read"] },
    streaming: [tool("read", { path: "p" }), tool("read_file", { path: "q" })],
  },
  // Rule 2: trimming and empty text blocks.
  {
    name: "rule 2: text blocks are trimmed",
    input: "  \n\t hi  \n<read_file><path>a</path></read_file>\n\n  bye \n",
    streaming: [text("hi"), tool("read_file", { path: "a" }), text("bye", true)],
  },
  {
    name: "rule 2: whitespace-only text between tools is not emitted",
    input: "<read_file><path>a</path></read_file>\n \n<read_file><path>b</path></read_file>\n",
    streaming: [tool("read_file", { path: "a" }), tool("read_file", { path: "b" })],
  },
  { name: "rule 2: whitespace-only input gives no block", input: " \n\t\r\n ", streaming: [] },
  { name: "rule 2: empty input gives no block", input: "", streaming: [] },
  {
    name: "rule 2: unicode whitespace is trimmed like String.trim",
    input: "\u00a0\u3000 word\u2028\ufeff",
    streaming: [text("word", true)],
  },
  // Rule 3: inside a tool.
  {
    name: "rule 3: anything between parameters is ignored",
    input: "<execute_command>I will run it <foo>x</foo>\n<command>ls</command> trailing <read_file> words</execute_command>",
    streaming: [tool("execute_command", { command: "ls" })],
  },
  {
    name: "rule 3: no tag is recognised inside a value except its closing tag",
    input: "<ask_followup_question><question>Use <path>x</path> or </ask_followup_question>?</question></ask_followup_question>",
    streaming: [tool("ask_followup_question", { question: "Use <path>x</path> or </ask_followup_question>?" })],
  },
  {
    name: "rule 3: unknown parameter tags inside a tool are ignored with their text",
    input: "<read_file><foo>bar</foo><path>a</path></read_file>",
    streaming: [tool("read_file", { path: "a" })],
  },
  // Rule 4: parameter values.
  {
    name: "rule 4: an ordinary parameter ends at its first closing tag and is trimmed",
    input: "<execute_command><command>\n  echo </command> </command><requires_approval> false </requires_approval></execute_command>",
    streaming: [tool("execute_command", { command: "echo", requires_approval: "false" })],
  },
  {
    name: "rule 4: content may contain its own closing tag",
    input: "<write_to_file><path>a.md</path><content>\nsay </content> in text\n</content></write_to_file>",
    streaming: [tool("write_to_file", { path: "a.md", content: "say </content> in text" })],
  },
  {
    name: "rule 4: content may contain its own closing tag twice",
    input: "<write_to_file><path>a.md</path><content>A </content> B </content> C</content></write_to_file>",
    streaming: [tool("write_to_file", { path: "a.md", content: "A </content> B </content> C" })],
  },
  {
    name: "rule 4: a long content (one-shot search path) may contain its own closing tag twice",
    input: `<write_to_file><path>a.md</path><content>${longLine}A </content> B </content> C${longLine}</content></write_to_file>`,
    streaming: [tool("write_to_file", { path: "a.md", content: `${longLine}A </content> B </content> C${longLine}` })],
  },
  {
    name: "rule 4: a diff may contain its own closing tag twice, next to line endings",
    input: "<replace_in_file><path>f</path><diff>\nA\n</diff>\nB</diff>\r\nC\n</diff></replace_in_file>",
    streaming: [tool("replace_in_file", { path: "f", diff: "A\n</diff>\nB</diff>\r\nC" })],
  },
  {
    name: "rule 4: content ends at the last closing tag before another parameter",
    input: "<write_to_file><content>a</content>b</content>c<path>p</path></write_to_file>",
    streaming: [tool("write_to_file", { content: "a</content>b", path: "p" })],
  },
  {
    name: "rule 4: diff keeps every character but one leading and one trailing newline",
    input: "<replace_in_file><path>f</path><diff>\n\n  ------- SEARCH\n  x\n=======\n  y\n+++++++ REPLACE  \n\n</diff></replace_in_file>",
    streaming: [tool("replace_in_file", { path: "f", diff: "\n  ------- SEARCH\n  x\n=======\n  y\n+++++++ REPLACE  \n" })],
  },
  {
    name: "rule 4: content without newlines keeps surrounding spaces",
    input: "<write_to_file><path>p</path><content>  spaced  </content></write_to_file>",
    streaming: [tool("write_to_file", { path: "p", content: "  spaced  " })],
  },
  {
    name: "rule 4: CRLF newlines are removed once from content",
    input: "<write_to_file>\r\n<path>p</path>\r\n<content>\r\n\r\nline1\r\nline2\r\n\r\n</content>\r\n</write_to_file>",
    streaming: [tool("write_to_file", { path: "p", content: "\r\nline1\r\nline2\r\n" })],
  },
  {
    name: "rule 4: a lone carriage return is not a newline",
    input: "<write_to_file><content>\r</content></write_to_file>",
    streaming: [tool("write_to_file", { content: "\r" })],
  },
  {
    name: "rule 4: content that is a single newline becomes empty",
    input: "<write_to_file><content>\n</content></write_to_file>",
    streaming: [tool("write_to_file", { content: "" })],
  },
  {
    name: "rule 4: a parameter given twice keeps its last value",
    input: "<read_file><path>first</path><path>second</path></read_file>",
    streaming: [tool("read_file", { path: "second" })],
  },
  {
    name: "rule 4: content given twice keeps its last value",
    input: "<write_to_file><content>one</content><content>two</content></write_to_file>",
    streaming: [tool("write_to_file", { content: "two" })],
  },
  {
    name: "rule 4: an opened parameter with no value yet is present and empty",
    input: "<read_file><path>",
    streaming: [tool("read_file", { path: "" }, true)],
  },
  {
    name: "rule 4: streaming content runs to the end of the input before any closing tag",
    input: "<write_to_file><path>a</path><content>\nline 1\nline 2",
    streaming: [tool("write_to_file", { path: "a", content: "line 1\nline 2" }, true)],
  },
  {
    name: "rule 4: streaming content runs to the last closing tag seen so far",
    input: "<write_to_file><content>\nA</content>\nB</content>\nC and more",
    streaming: [tool("write_to_file", { content: "A</content>\nB" }, true)],
  },
  {
    name: "rule 4: streaming content drops a trailing newline of the value so far",
    input: "<write_to_file><content>\nA\n",
    streaming: [tool("write_to_file", { content: "A" }, true)],
  },
  // Rule 5: the tool's closing tag.
  {
    name: "rule 5: the tool's closing tag inside an ordinary value does not end the tool",
    input: "<attempt_completion><result>done </attempt_completion> really</result></attempt_completion>",
    streaming: [tool("attempt_completion", { result: "done </attempt_completion> really" })],
  },
  {
    name: "rule 5: the tool's closing tag inside content before its first closing tag is kept",
    input: "<write_to_file><content>x </write_to_file> y</content></write_to_file>",
    streaming: [tool("write_to_file", { content: "x </write_to_file> y" })],
  },
  {
    name: "rule 5: known limit: </content> then </write_to_file> in the file ends the tool early",
    input: "<write_to_file><content>a</content>b</write_to_file>c</content></write_to_file>",
    streaming: [tool("write_to_file", { content: "a" }), text("c</content></write_to_file>", true)],
  },
  {
    name: "rule 5: another tool's closing tag does not close the tool",
    input: "<read_file><path>a</path></list_files> <path>b</path>",
    streaming: [tool("read_file", { path: "b" }, true)],
  },
  // Rule 6: the end of the input so far.
  {
    name: "rule 6: an open parameter never shows a fragment of its closing tag",
    input: "<read_file><path>src/index.ts</pa",
    streaming: [tool("read_file", { path: "src/index.ts" }, true)],
    ended: [tool("read_file", { path: "src/index.ts" })],
  },
  {
    name: "rule 6: a bare '<' at the end of a value is held back",
    input: "<write_to_file><content>a <",
    streaming: [tool("write_to_file", { content: "a " }, true)],
    ended: [tool("write_to_file", { content: "a " })],
  },
  {
    name: "rule 6: a '<' that cannot start the closing tag is shown",
    input: "<write_to_file><content>a <b",
    streaming: [tool("write_to_file", { content: "a <b" }, true)],
  },
  {
    name: "rule 6: an open tool is partial with the parameters so far",
    input: "Sure.\n<execute_command>\n<command>npm test</command>\n<requires_",
    streaming: [text("Sure."), tool("execute_command", { command: "npm test" }, true)],
  },
  {
    name: "rule 6: a trailing fragment that could start a tool tag is held back",
    input: "I will read it <read_fi",
    streaming: [text("I will read it", true)],
    ended: [text("I will read it <read_fi")],
  },
  {
    name: "rule 6: a trailing '<' alone is held back",
    input: "a < b <",
    streaming: [text("a < b", true)],
    ended: [text("a < b <")],
  },
  {
    name: "rule 6: a trailing fragment that cannot start a tool tag is shown",
    input: "x <reax",
    streaming: [text("x <reax", true)],
  },
  {
    name: "rule 6: a complete unknown tag at the end is shown",
    input: "x <read_file_extra>",
    streaming: [text("x <read_file_extra>", true)],
  },
  {
    name: "rule 6: text held back entirely gives no block until the end",
    input: "<attempt_comp",
    streaming: [],
    ended: [text("<attempt_comp")],
  },
  // Code fences, HTML, unicode, long values.
  {
    name: "code fence in text stays text, tool inside it still starts a tool",
    input: "```xml\n<path>a</path>\n```\n```\n<read_file><path>b</path></read_file>\n```",
    streaming: [text("```xml\n<path>a</path>\n```\n```"), tool("read_file", { path: "b" }), text("```", true)],
  },
  {
    name: "code fence inside content is kept verbatim",
    input: "<write_to_file><path>README.md</path><content>\n# T\n```ts\nconst a = 1 < 2;\n```\n</content></write_to_file>",
    streaming: [tool("write_to_file", { path: "README.md", content: "# T\n```ts\nconst a = 1 < 2;\n```" })],
  },
  {
    name: "HTML in content is kept",
    input: '<write_to_file><path>i.html</path><content>\n<!doctype html>\n<div class="a"><p>hi</p><br/></div>\n</content></write_to_file>',
    streaming: [tool("write_to_file", { path: "i.html", content: '<!doctype html>\n<div class="a"><p>hi</p><br/></div>' })],
  },
  {
    name: "HTML in an ordinary value is kept",
    input: "<attempt_completion><result><b>Done</b> & <i>tested</i></result></attempt_completion>",
    streaming: [tool("attempt_completion", { result: "<b>Done</b> & <i>tested</i>" })],
  },
  {
    name: "unicode text and values",
    input: "Voilà 🎉 中文\n<write_to_file><path>ü/ñ.txt</path><content>\n😀 𝒳 — «ok»\n</content></write_to_file>مرحبا",
    streaming: [text("Voilà 🎉 中文"), tool("write_to_file", { path: "ü/ñ.txt", content: "😀 𝒳 — «ok»" }), text("مرحبا", true)],
  },
  {
    name: "CRLF text around a tool",
    input: "Line one\r\nLine two\r\n<read_file>\r\n<path>a\r\n</path>\r\n</read_file>\r\n",
    streaming: [text("Line one\r\nLine two"), tool("read_file", { path: "a" })],
  },
  {
    name: "very long ordinary value",
    input: `<execute_command><command>${longLine}</command></execute_command>`,
    streaming: [tool("execute_command", { command: longLine })],
  },
  {
    name: "very long content with tags inside",
    input: `<write_to_file><path>big.html</path><content>\n${longFile}\n</content></write_to_file>`,
    streaming: [tool("write_to_file", { path: "big.html", content: longFile })],
  },
  {
    name: "use_mcp_tool with JSON arguments",
    input: '<use_mcp_tool><server_name>fs</server_name><tool_name>read</tool_name><arguments>{"a": "<b>"}</arguments></use_mcp_tool>',
    streaming: [tool("use_mcp_tool", { server_name: "fs", tool_name: "read", arguments: '{"a": "<b>"}' })],
  },
];
