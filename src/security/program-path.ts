/** Where a program is: an executable file in one of `PATH`'s folders (then in `extra`), or the path itself when it names one. */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findProgram(program: string, options: { path?: string; extra?: readonly string[] } = {}): string | undefined {
  if (program.includes("/")) return executable(program) ? program : undefined;
  const folders = [...(options.path ?? process.env["PATH"] ?? "").split(delimiter), ...(options.extra ?? [])];
  return folders
    .filter((folder) => folder !== "")
    .map((folder) => join(folder, program))
    .find(executable);
}
