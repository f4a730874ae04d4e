/**
 * A large repository for bench/trees.bench.ts: `files` files of about 8 KB (about
 * 400 MB for 50,000), half of them source under src/ and packages/, the rest in
 * what the ignore files hide: a node_modules-like folder and build output (root
 * .gitignore), and generated/ folders (nested .gitignore files), plus a .git
 * directory. One source file in 200 holds the line "needle_marker".
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LargeTree {
  root: string;
  files: number;
  bytes: number;
}

const line = (index: number) => `export const value${index} = compute(${index}, "some text to make the line a little longer");\n`;
const body = Array.from({ length: 90 }, (_, index) => line(index)).join("");

export function makeLargeTree(root: string, files = 50_000): LargeTree {
  let written = 0;
  let bytes = 0;
  const write = (folder: string, name: string, needle: boolean) => {
    const text = needle ? `${body}// needle_marker here\n` : body;
    writeFileSync(join(folder, name), text);
    written += 1;
    bytes += text.length;
  };
  const fill = (folder: string, count: number, needles: boolean) => {
    mkdirSync(folder, { recursive: true });
    for (let index = 0; index < count; index += 1) write(folder, `file${index}.ts`, needles && written % 200 === 0);
  };
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, ".gitignore"), "node_modules/\n/dist/\n*.log\n");
  mkdirSync(join(root, ".git", "objects", "pack"), { recursive: true });
  writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  for (let pack = 0; pack < 4; pack += 1) writeFileSync(join(root, ".git", "objects", "pack", `pack-${pack}.pack`), body.repeat(200));
  const share = Math.floor(files / 100);
  // Half the files are source: src/<module>/<folder>/ and packages/<name>/src/, 50 per folder.
  for (let module = 0; module < 10; module += 1) for (let folder = 0; folder < Math.ceil((share * 30) / 500); folder += 1) fill(join(root, "src", `module${module}`, `part${folder}`), 50, true);
  for (let pack = 0; pack < 10; pack += 1) {
    const packageRoot = join(root, "packages", `package${pack}`);
    mkdirSync(packageRoot, { recursive: true });
    writeFileSync(join(packageRoot, ".gitignore"), "generated/\n");
    for (let folder = 0; folder < Math.ceil((share * 20) / 500); folder += 1) fill(join(packageRoot, "src", `part${folder}`), 50, true);
    fill(join(packageRoot, "generated"), Math.floor((share * 5) / 10), false);
  }
  // Ignored at the root: dependencies and build output.
  for (let dependency = 0; written < files - share * 5; dependency += 1) fill(join(root, "node_modules", `dependency${dependency}`, "lib"), 100, false);
  for (let folder = 0; written < files; folder += 1) fill(join(root, "dist", `chunk${folder}`), Math.min(100, files - written), false);
  return { root, files: written, bytes };
}
