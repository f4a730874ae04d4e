import type { LspServerSetting } from "./types.js";

/** The `lsp` block as configured; `CAIRN_LSP=off` in the environment turns every server off (the built-in ones too), e.g. for a CI job. */
export function languageServers(configured: Record<string, LspServerSetting>, env: NodeJS.ProcessEnv): Record<string, LspServerSetting> {
  if (env["CAIRN_LSP"]?.trim().toLowerCase() !== "off") return configured;
  const names = new Set(["typescript", "pyright", ...Object.keys(configured)]);
  return Object.fromEntries([...names].map((name) => [name, { ...configured[name], disabled: true }]));
}
