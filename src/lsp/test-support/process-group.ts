import { readdirSync, readFileSync } from "node:fs";

/** The live (not zombie) processes of a process group, read from /proc. */
export function processesInGroup(group: number): string[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(fields[2]) === group && fields[0] !== "Z" ? [`${pid} ${stat.slice(0, 80)}`] : [];
      } catch {
        return [];
      }
    });
}
