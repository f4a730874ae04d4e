import { randomBytes } from "node:crypto";

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const suffixAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new task id such as `2026-11-30T11-10-00-k3f9q2`: sorts by creation time as plain
 * text, and the random tail keeps two tasks started in the same second apart.
 */
export function createTaskId(now: number = Date.now()): string {
  const stamp = new Date(now).toISOString().slice(0, 19).replaceAll(":", "-");
  const bytes = randomBytes(6);
  let suffix = "";
  for (const byte of bytes) suffix += suffixAlphabet[byte % suffixAlphabet.length];
  return `${stamp}-${suffix}`;
}

/** Ids become folder names: refuse anything that could leave the tasks folder. */
export function assertValidTaskId(taskId: string): void {
  if (!idPattern.test(taskId) || taskId.includes("..")) {
    throw new Error(`"${taskId}" is not a valid task id: use letters, digits, ".", "_" and "-" only (see \`cairn history\` for ids)`);
  }
}
