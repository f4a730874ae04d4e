/**
 * Reasoning that only one API can take back (OpenAI Responses' encrypted reasoning items,
 * Gemini's thought signatures) travels in the history's `signature` field, tagged with the
 * API's name. Anthropic signatures stay untagged. Each converter sends back only its own
 * reasoning, so a task resumed on another provider never sends a token that API would refuse.
 */
export type TaggedReasoningApi = "openai-responses" | "gemini";

const tagPattern = /^cairn:(openai-responses|gemini):/;

export function tagSignature(api: TaggedReasoningApi, payload: string): string {
  return `cairn:${api}:${payload}`;
}

/** The payload when `signature` was tagged by `api`; undefined otherwise. */
export function signaturePayload(api: TaggedReasoningApi, signature: string | undefined): string | undefined {
  const prefix = `cairn:${api}:`;
  return signature?.startsWith(prefix) === true ? signature.slice(prefix.length) : undefined;
}

/** The API that tagged `signature`, or "anthropic" for an untagged one. */
export function signatureOwner(signature: string): TaggedReasoningApi | "anthropic" {
  const match = tagPattern.exec(signature);
  return match?.[1] === "openai-responses" || match?.[1] === "gemini" ? match[1] : "anthropic";
}

/** Counts reasoning blocks a converter left out, for one note per request. */
export class DroppedReasoning {
  count = 0;
  readonly from = new Set<string>();

  add(origin: string): void {
    this.count += 1;
    this.from.add(origin);
  }

  /** A note for the user, or undefined when nothing was dropped. */
  note(target: string): string | undefined {
    if (this.count === 0) return undefined;
    const origins = [...this.from].join(", ");
    return `${this.count} reasoning block(s) from ${origins} left out of the request: ${target} cannot take them back`;
  }
}
