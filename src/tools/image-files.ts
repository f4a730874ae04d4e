/** Image files the model APIs accept, by extension (issue #12: images for models that take them). */
import { extname } from "node:path";

const mediaTypes: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The media type of an image path, or undefined when it is not an image the APIs take. */
export function imageMediaType(path: string): string | undefined {
  return mediaTypes[extname(path).toLowerCase()];
}
