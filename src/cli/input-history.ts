/**
 * What the user typed in the terminal UI, per workspace, kept across sessions
 * (`<data folder>/input-history.json`), for Up/Down. Written on each send; a
 * broken file is started afresh rather than stopping the UI.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { InputHistoryStore } from "../ui/tui/controller.js";

const keepPerWorkspace = 200;

export class FileInputHistory implements InputHistoryStore {
  private readonly file: string;
  private all: Record<string, string[]>;

  constructor(private readonly options: { dataDir: string; workspace: string }) {
    this.file = join(options.dataDir, "input-history.json");
    this.all = this.read();
  }

  entries(): readonly string[] {
    return this.all[this.options.workspace] ?? [];
  }

  add(text: string): void {
    // Another cairn may have added entries meanwhile: read again before writing.
    this.all = this.read();
    const list = (this.all[this.options.workspace] ?? []).filter((entry) => entry !== text);
    list.push(text);
    this.all[this.options.workspace] = list.slice(-keepPerWorkspace);
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(this.all)}\n`);
      renameSync(temporary, this.file);
    } catch {
      // History is a convenience: a read-only data folder must not break typing.
    }
  }

  private read(): Record<string, string[]> {
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as unknown;
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
      const result: Record<string, string[]> = {};
      for (const [workspace, entries] of Object.entries(parsed)) {
        if (Array.isArray(entries)) result[workspace] = entries.filter((entry): entry is string => typeof entry === "string");
      }
      return result;
    } catch {
      return {};
    }
  }
}
