/**
 * Mentions (`@path`, `@url`, `@git-changes`) reach the model as an
 * `<attached_context>` block after the typed text; the UI shows the typed text
 * and a one-line summary of what was attached.
 */
export const attachedContextMarker = "\n\n<attached_context>";

/** The typed part of a message, and the names of what was attached to it. */
export function splitAttachedContext(text: string): { typed: string; attached: string[] } {
  const index = text.indexOf(attachedContextMarker);
  if (index === -1) return { typed: text, attached: [] };
  const block = text.slice(index);
  const attached = [...block.matchAll(/^<(file|folder|url|image) (?:path|href)="([^"]*)">|^<(git_changes)>/gm)].map((match) => match[2] ?? "git changes");
  return { typed: text.slice(0, index), attached };
}
