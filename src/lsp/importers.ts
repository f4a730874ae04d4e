/**
 * The files that import a given file, found by reading the workspace's source
 * files of the same language (a text scan: no server needs to be asked, and
 * it costs tens of milliseconds in a thousand-file project). Relative imports
 * of JavaScript and TypeScript are resolved; Python imports are matched by
 * module name.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";

const skippedFolders = new Set(["node_modules", ".git", "dist", "build", "out", "__pycache__", ".venv", "venv", "target"]);
const maximumFiles = 20_000;
const readsAtOnce = 64;

async function sourceFiles(root: string, extensions: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const queue = [root];
  while (queue.length > 0 && found.length < maximumFiles) {
    const folder = queue.shift() ?? root;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name) && !entry.name.startsWith(".")) queue.push(join(folder, entry.name));
      } else if (entry.isFile() && extensions.includes(extname(entry.name).toLowerCase())) {
        found.push(join(folder, entry.name));
      }
    }
  }
  return found;
}

const scriptSpecifier = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
const scriptEndings = /\.(?:[cm]?[jt]sx?)$/;

function withoutEnding(path: string): string {
  return path.replace(scriptEndings, "").replace(/\/index$/, "");
}

function importsScript(importer: string, text: string, target: string): boolean {
  const wanted = withoutEnding(target);
  for (const match of text.matchAll(scriptSpecifier)) {
    if (withoutEnding(resolve(dirname(importer), match[1] ?? "")) === wanted) return true;
  }
  return false;
}

function importsPython(text: string, target: string): boolean {
  const stem = basename(target, extname(target));
  const module = stem === "__init__" ? basename(dirname(target)) : stem;
  const pattern = new RegExp(`^\\s*(?:from\\s+[\\w.]*\\b${module}\\b[\\w.]*\\s+import|from\\s+[\\w.]+\\s+import\\s+[^\\n]*\\b${module}\\b|import\\s+[\\w.]*\\b${module}\\b)`, "m");
  return pattern.test(text);
}

/** Up to `limit` files under `root` with one of `extensions` that import `target` (absolute). */
export async function findImporters(options: { root: string; target: string; extensions: readonly string[]; limit: number }): Promise<string[]> {
  const { target } = options;
  const python = [".py", ".pyi"].includes(extname(target).toLowerCase());
  const needle = python ? basename(target, extname(target)) : basename(withoutEnding(target));
  const importers: string[] = [];
  const files = (await sourceFiles(options.root, options.extensions)).filter((file) => file !== target);
  const imports = async (file: string): Promise<boolean> => {
    const text = await readFile(file, "utf8").catch(() => "");
    if (!text.includes(needle === "index" ? basename(dirname(target)) : needle)) return false;
    return python ? importsPython(text, target) : importsScript(file, text, target);
  };
  // Read in batches: one file at a time waits on the disk (and a loaded machine) a thousand times.
  for (let start = 0; start < files.length && importers.length < options.limit; start += readsAtOnce) {
    const batch = files.slice(start, start + readsAtOnce);
    const found = await Promise.all(batch.map(imports));
    batch.forEach((file, index) => {
      if (found[index] === true && importers.length < options.limit) importers.push(file);
    });
  }
  return importers;
}
