/**
 * Tool descriptions come from servers that may not be trustworthy: a description
 * is text the model reads. The user sees a server's tools on first connection and
 * approves them; `<dataDir>/mcp-approved.json` keeps a hash of each approved tool
 * so a later change of description or schema is noticed and shown as a warning.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface DescribedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type ToolDescriptionReview =
  /** Never approved: show the user every tool before trusting them. */
  | { kind: "new_server"; server: string; tools: DescribedTool[] }
  /** Approved before, but tools were added or their descriptions or schemas changed. */
  | { kind: "changed"; server: string; changed: DescribedTool[]; added: DescribedTool[]; removed: string[] };

interface ApprovedFile {
  version: 1;
  servers: Record<string, { approvedAt: string; tools: Record<string, string> }>;
}

/** JSON with sorted keys, so the same schema always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function toolDescriptionHash(tool: DescribedTool): string {
  return createHash("sha256")
    .update(canonicalJson({ description: tool.description, inputSchema: tool.inputSchema }))
    .digest("hex");
}

export class McpTrustStore {
  readonly file: string;

  constructor(options: { dataDir: string }) {
    this.file = join(options.dataDir, "mcp-approved.json");
  }

  private async read(): Promise<ApprovedFile> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<ApprovedFile>;
      if (typeof parsed.servers !== "object" || parsed.servers === null) throw new Error('no "servers" object');
      return { version: 1, servers: parsed.servers };
    } catch (error) {
      throw new Error(`${this.file} is damaged (${(error as Error).message}); delete it to approve MCP servers' tools again`, { cause: error });
    }
  }

  /** What the user must see for this server's current tools, or undefined when nothing changed. */
  async review(server: string, tools: DescribedTool[]): Promise<ToolDescriptionReview | undefined> {
    const approved = (await this.read()).servers[server];
    if (approved === undefined) return { kind: "new_server", server, tools };
    const changed: DescribedTool[] = [];
    const added: DescribedTool[] = [];
    for (const tool of tools) {
      const known = approved.tools[tool.name];
      if (known === undefined) added.push(tool);
      else if (known !== toolDescriptionHash(tool)) changed.push(tool);
    }
    if (changed.length === 0 && added.length === 0) return undefined;
    const current = new Set(tools.map((tool) => tool.name));
    const removed = Object.keys(approved.tools).filter((name) => !current.has(name));
    return { kind: "changed", server, changed, added, removed };
  }

  /** Records these tools as seen and accepted by the user. */
  async approve(server: string, tools: DescribedTool[]): Promise<void> {
    const contents = await this.read();
    contents.servers[server] = {
      approvedAt: new Date().toISOString(),
      tools: Object.fromEntries(tools.map((tool) => [tool.name, toolDescriptionHash(tool)])),
    };
    await mkdir(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(contents, null, 2)}\n`, "utf8");
    await rename(temporary, this.file);
  }
}
