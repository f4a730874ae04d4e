/**
 * Credentials: folders and files that are never read unless a rule names them
 * (and that the sandbox hides). Protected paths are in protected-paths.ts.
 */
import { homedir } from "node:os";
import { basename, join, sep } from "node:path";

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export { protectedReason } from "./protected-paths.js";

/** Credentials folders under the home folder, denied unless a rule names them. */
export function credentialFolders(userConfigDir: string): string[] {
  const home = homedir();
  return [
    ".ssh", ".aws", ".gnupg", ".config/gh", ".config/hub", ".docker", ".kube", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".config/gcloud", ".azure",
    ".claude", ".codex", ".config/op", ".password-store", ".local/share/keyrings", ".vault-token", ".terraform.d", ".cargo/credentials", ".cargo/credentials.toml",
    ".gem/credentials", ".m2/settings.xml", ".gradle/gradle.properties", ".mozilla", ".config/google-chrome", ".config/chromium",
  ]
    .map((name) => join(home, name))
    .concat(userConfigDir);
}

export function isCredentialPath(path: string, userConfigDir: string): boolean {
  if (/^\.env(\..*)?$/.test(basename(path)) && !/\.(example|sample|template)$/.test(path)) return true;
  return credentialFolders(userConfigDir).some((folder) => within(folder, path));
}
