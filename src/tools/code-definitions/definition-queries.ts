/**
 * Tree-sitter queries (written for cairn) that capture definitions: each
 * match has an `@definition` node and its `@name`. Keyed by file extension.
 */

const typescript = `
(function_declaration name: (identifier) @name) @definition
(generator_function_declaration name: (identifier) @name) @definition
(class_declaration name: (type_identifier) @name) @definition
(abstract_class_declaration name: (type_identifier) @name) @definition
(method_definition name: (property_identifier) @name) @definition
(interface_declaration name: (type_identifier) @name) @definition
(type_alias_declaration name: (type_identifier) @name) @definition
(enum_declaration name: (identifier) @name) @definition
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition))
`;

const javascript = `
(function_declaration name: (identifier) @name) @definition
(generator_function_declaration name: (identifier) @name) @definition
(class_declaration name: (identifier) @name) @definition
(method_definition name: (property_identifier) @name) @definition
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition))
`;

const python = `
(function_definition name: (identifier) @name) @definition
(class_definition name: (identifier) @name) @definition
`;

const go = `
(function_declaration name: (identifier) @name) @definition
(method_declaration name: (field_identifier) @name) @definition
(type_declaration (type_spec name: (type_identifier) @name)) @definition
`;

const rust = `
(function_item name: (identifier) @name) @definition
(struct_item name: (type_identifier) @name) @definition
(enum_item name: (type_identifier) @name) @definition
(trait_item name: (type_identifier) @name) @definition
(impl_item type: (type_identifier) @name) @definition
(mod_item name: (identifier) @name) @definition
`;

const java = `
(class_declaration name: (identifier) @name) @definition
(interface_declaration name: (identifier) @name) @definition
(enum_declaration name: (identifier) @name) @definition
(method_declaration name: (identifier) @name) @definition
(constructor_declaration name: (identifier) @name) @definition
`;

const c = `
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition
(struct_specifier name: (type_identifier) @name body: (_)) @definition
(enum_specifier name: (type_identifier) @name body: (_)) @definition
(type_definition declarator: (type_identifier) @name) @definition
`;

const cpp = `
${c}
(function_definition declarator: (function_declarator declarator: [(field_identifier) (qualified_identifier)] @name)) @definition
(class_specifier name: (type_identifier) @name body: (_)) @definition
(namespace_definition name: (namespace_identifier) @name) @definition
`;

export interface LanguageEntry {
  /** File name of the grammar in tree-sitter-wasms/out. */
  grammar: string;
  query: string;
}

export const languagesByExtension: Record<string, LanguageEntry> = {
  ".ts": { grammar: "tree-sitter-typescript.wasm", query: typescript },
  ".mts": { grammar: "tree-sitter-typescript.wasm", query: typescript },
  ".cts": { grammar: "tree-sitter-typescript.wasm", query: typescript },
  ".tsx": { grammar: "tree-sitter-tsx.wasm", query: typescript },
  ".js": { grammar: "tree-sitter-javascript.wasm", query: javascript },
  ".mjs": { grammar: "tree-sitter-javascript.wasm", query: javascript },
  ".cjs": { grammar: "tree-sitter-javascript.wasm", query: javascript },
  ".jsx": { grammar: "tree-sitter-javascript.wasm", query: javascript },
  ".py": { grammar: "tree-sitter-python.wasm", query: python },
  ".go": { grammar: "tree-sitter-go.wasm", query: go },
  ".rs": { grammar: "tree-sitter-rust.wasm", query: rust },
  ".java": { grammar: "tree-sitter-java.wasm", query: java },
  ".c": { grammar: "tree-sitter-c.wasm", query: c },
  ".h": { grammar: "tree-sitter-cpp.wasm", query: cpp },
  ".cc": { grammar: "tree-sitter-cpp.wasm", query: cpp },
  ".cpp": { grammar: "tree-sitter-cpp.wasm", query: cpp },
  ".cxx": { grammar: "tree-sitter-cpp.wasm", query: cpp },
  ".hpp": { grammar: "tree-sitter-cpp.wasm", query: cpp },
};
