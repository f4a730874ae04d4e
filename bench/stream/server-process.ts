/** Starts bench/stream/serve.ts (or another serving program that takes the same arguments) in a process of its own and waits for its address. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const serverProgram = fileURLToPath(new URL("./serve.ts", import.meta.url));
const checkout = fileURLToPath(new URL("../..", import.meta.url));

/** `batchBytes` > 0: the event streams leave in blocks of that size (batch-writes.ts). */
export async function startStreamServer(count: number, batchBytes = 0, program = serverProgram): Promise<{ url: string; stop: () => void }> {
  // From the checkout, where `--import tsx` resolves.
  const child = spawn(process.execPath, ["--import", "tsx", program, String(count), String(batchBytes)], { cwd: checkout, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (data: string) => {
      seen += data;
      const match = /listening on (\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`the stream server exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
}
