/**
 * An ACP prompt (text, resource links, embedded resources, images) as the
 * text and images of one cairn user message. Embedded text resources are
 * inlined like an @-mention of a file, so the model sees the editor's version.
 */
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageContent } from "../llm/types.js";

export interface UserTurn {
  text: string;
  images: ImageContent[];
}

function pathOf(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function userTurnFromPrompt(prompt: ContentBlock[]): UserTurn {
  const parts: string[] = [];
  const attachments: string[] = [];
  const images: ImageContent[] = [];
  for (const block of prompt) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link":
        // A link the model can open with its own tools (read_file), like an @-mention.
        parts.push(`@${pathOf(block.uri)}`);
        break;
      case "resource": {
        const resource = block.resource;
        const where = pathOf(resource.uri);
        if ("text" in resource) {
          attachments.push(`<file_content path="${where}">\n${resource.text}\n</file_content>`);
        } else if (resource.mimeType?.startsWith("image/") === true) {
          images.push({ type: "image", mediaType: resource.mimeType, data: resource.blob });
        } else {
          attachments.push(`[${where}: binary content (${resource.mimeType ?? "unknown type"}) not included]`);
        }
        break;
      }
      case "image":
        images.push({ type: "image", mediaType: block.mimeType, data: block.data });
        break;
      case "audio":
        attachments.push("[an audio clip was attached; cairn cannot listen to audio]");
        break;
    }
  }
  const text = [parts.join(" ").trim(), ...attachments].filter((part) => part !== "").join("\n\n");
  return { text, images };
}
