import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./test-support/source-files.js";

// #11: docs/architecture.md's layer table is drawn from the actual imports, and this test keeps it so.

const srcDir = dirname(fileURLToPath(import.meta.url));
const architecture = join(srcDir, "..", "docs", "architecture.md");

function layerOf(path: string): string {
  const first = relative(srcDir, path).split(sep)[0] ?? "";
  return /\.(t|j)sx?$/.test(first) ? "(root)" : first;
}

/** Layer to the layers its (non-test) files import, and every import of src/task/ from outside it. */
function importGraph(): { layers: Map<string, Set<string>>; intoTask: string[] } {
  const layers = new Map<string, Set<string>>();
  const intoTask: string[] = [];
  for (const file of sourceFiles(srcDir)) {
    const from = layerOf(file);
    if (!layers.has(from)) layers.set(from, new Set());
    for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = normalize(join(dirname(file), match[1]!));
      if (!target.startsWith(srcDir)) continue;
      const to = layerOf(target);
      if (to === from) continue;
      layers.get(from)!.add(to);
      if (to === "task") intoTask.push(`${relative(srcDir, file)} -> ${relative(srcDir, target)}`);
    }
  }
  return { layers, intoTask };
}

/** The table rows of docs/architecture.md: `src/x/` to the layers named in its last column. */
function documentedTable(): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const line of readFileSync(architecture, "utf8").split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const layer = /^`src\/([a-z]+)\/`$/.exec(cells[1] ?? "")?.[1];
    if (layer === undefined) continue;
    const imports = [...(cells[cells.length - 2] ?? "").matchAll(/`([a-z]+)`/g)].map((match) => match[1]!);
    table.set(layer, new Set(imports));
  }
  return table;
}

const sorted = (map: Map<string, Set<string>>): Record<string, string[]> =>
  Object.fromEntries(
    [...map.entries()]
      .filter(([layer]) => layer !== "(root)")
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([layer, set]) => [layer, [...set].sort()]),
  );

describe("layers (docs/architecture.md, DESIGN.md)", () => {
  it("the layer table of docs/architecture.md lists exactly what each layer imports", () => {
    expect(sorted(documentedTable())).toEqual(sorted(importGraph().layers));
  });

  it("task/ imports nothing above it; llm/ and parser/ import nothing above them", () => {
    const { layers } = importGraph();
    expect([...(layers.get("task") ?? [])].filter((layer) => !["context", "llm", "parser"].includes(layer))).toEqual([]);
    expect([...(layers.get("llm") ?? [])].filter((layer) => layer !== "parser")).toEqual([]);
    expect([...(layers.get("parser") ?? [])]).toEqual([]);
  });

  it("other layers reach src/task/ only through its contracts (and the Task class itself)", () => {
    const outside = importGraph().intoTask.filter((edge) => !/-> task[\\/](contracts[\\/]|task\.js$)/.test(edge));
    expect(outside).toEqual([]);
  });

  it("no layer imports the commands, and no front end imports another (eval runs its cases as fleet jobs)", () => {
    const { layers } = importGraph();
    const frontEnds = ["acp", "eval", "fleet", "sdk"];
    const allowed = new Set(["eval -> fleet"]);
    const edges = [...layers.entries()].flatMap(([from, to]) => [...to].map((layer) => `${from} -> ${layer}`));
    expect(edges.filter((edge) => edge.endsWith("-> cli"))).toEqual([]);
    expect(edges.filter((edge) => frontEnds.some((end) => edge.startsWith(`${end} -> `)) && frontEnds.some((end) => edge.endsWith(`-> ${end}`)) && !allowed.has(edge))).toEqual([]);
  });

  it("only the session core builds a Task: every front end gets its tasks from createSession", () => {
    const builders = sourceFiles(srcDir)
      .filter((file) => /\bnew Task\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(srcDir, file).split(sep).join("/"))
      .filter((file) => !file.startsWith("session/") && !file.startsWith("task/"));
    expect(builders).toEqual([]);
  });
});
