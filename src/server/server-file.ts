/**
 * `<data dir>/server.json`: where the running `cairn serve` listens and its
 * token, readable by the user only, so `cairn attach` finds it untold.
 */
import { networkInterfaces, hostname } from "node:os";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface ServerFile {
  url: string;
  token: string;
  pid: number;
}

export function serverFilePath(dataDir: string): string {
  return join(dataDir, "server.json");
}

export async function writeServerFile(dataDir: string, contents: ServerFile): Promise<void> {
  const path = serverFilePath(dataDir);
  await rm(path, { force: true });
  await writeFile(path, `${JSON.stringify(contents)}\n`, { mode: 0o600, flag: "wx" });
}

/** Removes the file if it is still this process's (another server may have started since). */
export async function removeServerFile(dataDir: string, pid: number): Promise<void> {
  const path = serverFilePath(dataDir);
  const current = await readFile(path, "utf8").catch(() => "");
  if (current.includes(`"pid":${pid}`)) await rm(path, { force: true });
}

/** The names this machine is reached by beyond loopback: its addresses and its host name. */
export function networkNames(): string[] {
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((info) => (info.family === "IPv6" ? `[${info.address}]` : info.address));
  return [...addresses, hostname()];
}
