/**
 * Programs a whole-program deny rule names (`Bash(rm:*)`, `Bash(curl *)`) are
 * replaced in the sandbox by a stub that refuses and says why: a deny rule
 * then holds for everything the command starts (a script, `npm test`, a
 * wrapper cairn does not know, a renamed copy), not only for what the parse
 * of the command line sees.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, delimiter, join } from "node:path";
import type { PermissionRules } from "./permission-rules.js";

/** The program a deny rule names as a whole, or undefined for a rule about some of its uses (`Bash(git push:*)`). */
export function wholeProgramOf(specifier: string | undefined): string | undefined {
  if (specifier === undefined) return undefined;
  return /^([A-Za-z0-9_.+-]+)(:\*| \*)$/.exec(specifier.trim())?.[1];
}

const standardFolders = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** The real files a program name runs from the PATH and the standard folders. */
function programFiles(name: string, path: string | undefined): string[] {
  const files = new Set<string>();
  for (const folder of [...(path ?? "").split(delimiter), ...standardFolders]) {
    if (folder === "") continue;
    try {
      const real = realpathSync(join(folder, name));
      // A multi-call binary (busybox, toybox) serves every program: a stub over it would stop everything.
      if (statSync(real).isFile() && basename(real) === name) files.add(real);
    } catch {
      continue;
    }
  }
  return [...files];
}

function stubText(name: string, rule: string): string {
  const quoted = `cairn: ${name} is denied by the rule ${rule}; it did not run.`.replace(/'/g, "'\\''");
  return `#!/bin/sh\nprintf '%s\\n' '${quoted}' >&2\nexit 126\n`;
}

/** The stubs for the rules in force, written under `folder`: each program's real file and the stub to bind over it. */
export function deniedProgramStubs(options: { rules: PermissionRules; folder: string; path: string | undefined }): Array<{ path: string; stub: string }> {
  const result: Array<{ path: string; stub: string }> = [];
  for (const rule of options.rules.rules) {
    if (rule.tool !== "Bash" || rule.decision !== "deny") continue;
    const name = wholeProgramOf(rule.specifier);
    if (name === undefined) continue;
    const files = programFiles(name, options.path);
    if (files.length === 0) continue;
    const stub = join(options.folder, name);
    const text = stubText(name, `${rule.text} (${rule.source})`);
    try {
      if (readFileSync(stub, "utf8") !== text) throw new Error("changed");
    } catch {
      try {
        mkdirSync(options.folder, { recursive: true });
        const temporary = `${stub}.${process.pid}`;
        writeFileSync(temporary, text);
        chmodSync(temporary, 0o555);
        renameSync(temporary, stub);
      } catch {
        continue;
      }
    }
    for (const path of files) result.push({ path, stub });
  }
  return result;
}
