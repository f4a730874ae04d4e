/**
 * The task's language servers (issue #32): none runs until a file it serves
 * is read, edited or asked about; all are ended when the session closes.
 */
import { realpathSync } from "node:fs";
import type { ResolvedSettings } from "../config/index.js";
import { LanguageServers } from "../lsp/language-servers.js";
import type { LaunchPolicy } from "../security/process-launch.js";

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function startLanguageServers(settings: Pick<ResolvedSettings, "cwd" | "lsp" | "editDiagnostics" | "diagnosticsWaitMs">, policy: LaunchPolicy | undefined): LanguageServers {
  return new LanguageServers({ workspace: realPath(settings.cwd), settings: settings.lsp, policy, editDiagnostics: settings.editDiagnostics, editWaitMs: settings.diagnosticsWaitMs });
}
