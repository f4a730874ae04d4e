/**
 * Credentials: folders and files that are never read unless a rule names them
 * (and that the sandbox hides). Protected paths are in protected-paths.ts.
 */
import { homedir } from "node:os";
import { basename, isAbsolute, join, sep } from "node:path";

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export { protectedReason } from "./protected-paths.js";

/** Where other agents keep their sign-ins when their variables move them from the home folder. */
const movedAgentFolders = ["CLAUDE_CONFIG_DIR", "CODEX_HOME"];

/** The last list built, by what it was built from: a search checks hundreds of paths against the same list. */
let lastFolders: { key: string; folders: string[] } | undefined;

/** Credentials folders under the home folder (and where other agents' variables put theirs), denied unless a rule names them. */
export function credentialFolders(userConfigDir: string): string[] {
  const home = homedir();
  const moved = movedAgentFolders.map((name) => process.env[name] ?? "").filter((path) => path !== "" && isAbsolute(path));
  const key = [home, userConfigDir, ...moved].join("\0");
  if (lastFolders?.key !== key) lastFolders = { key, folders: buildCredentialFolders(home, moved, userConfigDir) };
  return [...lastFolders.folders];
}

function buildCredentialFolders(home: string, moved: string[], userConfigDir: string): string[] {
  return [
    ".ssh",
    ".aws",
    ".gnupg",
    ".config/gh",
    ".config/hub",
    ".docker",
    ".kube",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".config/gcloud",
    ".azure",
    ".claude",
    ".claude.json",
    ".codex",
    ".config/op",
    ".password-store",
    ".local/share/keyrings",
    ".vault-token",
    ".terraform.d",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".gem/credentials",
    ".m2/settings.xml",
    ".gradle/gradle.properties",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
  ]
    .map((name) => join(home, name))
    .concat(moved, userConfigDir);
}

export function isCredentialPath(path: string, userConfigDir: string): boolean {
  if (/^\.env(\..*)?$/.test(basename(path)) && !/\.(example|sample|template)$/.test(path)) return true;
  return credentialFolders(userConfigDir).some((folder) => within(folder, path));
}
