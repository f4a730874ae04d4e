import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The non-test TypeScript sources under `folder`, test-support folders aside. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === "test-support" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
