/** Where ripgrep is: the @vscode/ripgrep binary, else `rg` on PATH, else none (the JS fallback is used). */
import { rgPath } from "@vscode/ripgrep";
import { findProgram } from "../../security/program-path.js";

export function findRipgrep(environmentPath: string | undefined = process.env["PATH"]): string | undefined {
  return findProgram(rgPath) ?? findProgram("rg", { path: environmentPath ?? "" });
}
