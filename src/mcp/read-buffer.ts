/**
 * The stdio transport's message buffer, linear in the size of a message. The SDK's own
 * (`ReadBuffer`) copies everything received so far on every chunk and searches it again
 * from the start, so a multi-megabyte tool result took long enough to time the call out,
 * and it refuses messages over 10 MB. This one keeps the chunks, searches each byte once
 * for the end of the line, and joins a message once.
 */
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const LINE_FEED = 10;

/** The largest message taken from a server (a tool result of this size is cut for the model anyway). */
export const maxMessageBytes = 256 * 1024 * 1024;

export class LinearReadBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes at the start of the pending data known to hold no line feed. */
  private searched = 0;

  constructor(private readonly maxBytes = maxMessageBytes) {}

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`an MCP server sent a message larger than ${this.maxBytes} bytes; it was dropped`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    let offset = 0;
    for (let index = 0; index < this.chunks.length; index += 1) {
      const chunk = this.chunks[index]!;
      const from = this.searched - offset;
      if (from < chunk.length) {
        const found = chunk.indexOf(LINE_FEED, Math.max(0, from));
        if (found !== -1) return this.takeLine(index, offset + found);
      }
      offset += chunk.length;
    }
    this.searched = this.size;
    return null;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.searched = 0;
  }

  /** The message that ends at `lineEnd` (in chunk `last`); the rest stays. */
  private takeLine(last: number, lineEnd: number): JSONRPCMessage {
    const joined = last === 0 ? this.chunks[0]! : Buffer.concat(this.chunks.slice(0, last + 1));
    const line = joined.toString("utf8", 0, lineEnd).replace(/\r$/, "");
    const rest = joined.subarray(lineEnd + 1);
    this.chunks = rest.length > 0 ? [rest, ...this.chunks.slice(last + 1)] : this.chunks.slice(last + 1);
    this.size -= lineEnd + 1;
    this.searched = 0;
    return deserializeMessage(line);
  }
}
