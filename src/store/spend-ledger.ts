/**
 * The user's spend ledger for spend caps across tasks (#36): one append-only
 * file per UTC day, `<dataDir>/spend/YYYY-MM-DD.jsonl`, one line per request
 * (`{"cost":0.0123,"taskId":"..."}`). Each line is written by one `write` on a
 * file opened with O_APPEND, which the kernel keeps whole and in order across
 * processes, so two cairn processes charging at once lose nothing, with no
 * lock. Reads are incremental: a process reads only the bytes added since its
 * last read, so checking before each request stays cheap however long the day.
 */
import { mkdirSync, openSync, closeSync, readSync, writeSync, fstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

interface FileSum {
  offset: number;
  sum: number;
  /** A line still being written when the file was last read (never seen in practice: one write per line). */
  rest: string;
}

function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export class FileSpendLedger {
  readonly scope = "this user (all tasks of this data folder)";
  private readonly dir: string;
  private readonly files = new Map<string, FileSum>();

  constructor(
    dataDir: string,
    private readonly taskId = "",
  ) {
    this.dir = join(dataDir, "spend");
  }

  spent(now: number): Promise<{ day: number; month: number }> {
    const day = utcDay(now);
    const month = day.slice(0, 7);
    let monthSum = 0;
    let daySum = 0;
    for (const name of this.dayFiles(month)) {
      const sum = this.sumOf(name);
      monthSum += sum;
      if (name === `${day}.jsonl`) daySum = sum;
    }
    return Promise.resolve({ day: daySum, month: monthSum });
  }

  charge(cost: number, now: number): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const fd = openSync(join(this.dir, `${utcDay(now)}.jsonl`), "a");
    try {
      writeSync(fd, `${JSON.stringify({ cost, ...(this.taskId === "" ? {} : { taskId: this.taskId }), ts: now })}\n`);
    } finally {
      closeSync(fd);
    }
    return Promise.resolve();
  }

  private dayFiles(month: string): string[] {
    try {
      return readdirSync(this.dir).filter((name) => name.startsWith(`${month}-`) && name.endsWith(".jsonl"));
    } catch {
      return [];
    }
  }

  /** The file's total, reading only what was appended since the last time. */
  private sumOf(name: string): number {
    const known = this.files.get(name) ?? { offset: 0, sum: 0, rest: "" };
    let fd: number;
    try {
      fd = openSync(join(this.dir, name), "r");
    } catch {
      return known.sum;
    }
    try {
      const size = fstatSync(fd).size;
      if (size > known.offset) {
        const buffer = Buffer.alloc(size - known.offset);
        let read = 0;
        while (read < buffer.length) {
          const count = readSync(fd, buffer, read, buffer.length - read, known.offset + read);
          if (count === 0) break;
          read += count;
        }
        const lines = (known.rest + buffer.subarray(0, read).toString("utf8")).split("\n");
        known.rest = lines.pop() ?? "";
        for (const line of lines) known.sum += costOf(line);
        known.offset += read;
      }
    } finally {
      closeSync(fd);
    }
    this.files.set(name, known);
    return known.sum;
  }
}

function costOf(line: string): number {
  try {
    const cost = (JSON.parse(line) as { cost?: unknown }).cost;
    return typeof cost === "number" && Number.isFinite(cost) && cost > 0 ? cost : 0;
  } catch {
    return 0;
  }
}
