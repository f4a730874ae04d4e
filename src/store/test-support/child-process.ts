import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));
const childScript = fileURLToPath(new URL("./append-child.ts", import.meta.url));

export interface RunningChild {
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves with the first line that matches. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** SIGKILL and wait until the process is gone. */
  kill(): Promise<void>;
}

let bundled: string | undefined;

/** The child and the store it drives as one plain script, built once per test file: a start is then node's own, not a TypeScript loader's. */
function childBundle(): string {
  if (bundled !== undefined) return bundled;
  const outfile = join(mkdtempSync(join(tmpdir(), "cairn-append-child-")), "append-child.mjs");
  buildSync({ entryPoints: [childScript], outfile, bundle: true, platform: "node", format: "esm", packages: "external", logLevel: "error" });
  bundled = outfile;
  return outfile;
}

/** Starts test-support/append-child.ts in its own node process. */
export function startAppendChild(options: { dataDir: string; taskId: string; mode: "append" | "hold" }): RunningChild {
  const child = spawn(process.execPath, [childBundle(), options.dataDir, options.taskId, options.mode], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let stderr = "";
  let pending = "";
  child.stderr.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  child.stdout.on("data", (data: Buffer) => {
    pending += data.toString();
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    lines,
    waitForLine: (pattern) =>
      new Promise((resolve, reject) => {
        const found = lines.find((line) => pattern.test(line));
        if (found !== undefined) return resolve(found);
        waiters.push({ pattern, resolve });
        void exited.then(() => reject(new Error(`child exited before printing ${String(pattern)}: ${stderr}`)));
      }),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
