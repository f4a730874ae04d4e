/** Where ripgrep is: the @vscode/ripgrep binary, else `rg` on PATH, else none (the JS fallback is used). */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { rgPath } from "@vscode/ripgrep";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findRipgrep(environmentPath: string | undefined = process.env["PATH"]): string | undefined {
  if (executable(rgPath)) return rgPath;
  for (const folder of (environmentPath ?? "").split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, "rg");
    if (executable(candidate)) return candidate;
  }
  return undefined;
}
