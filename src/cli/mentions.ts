/**
 * Mentions in what the user types (issue #12): `@path` attaches a file's
 * content (a folder: its listing), `@https://…` a page, `@git-changes` the
 * working-tree diff. Files obey the workspace guard (inside the workspace) and
 * the ignore file, as the tools do. The attachments follow the typed text in
 * an `<attached_context>` block the terminal UI folds.
 */
import { execFile } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve as resolvePath } from "node:path";
import { promisify } from "node:util";
import { homedir } from "node:os";
import type { ImageContent } from "../llm/types.js";
import { imageMediaType } from "../tools/image-files.js";
import { htmlToMarkdown } from "../tools/web/html-to-markdown.js";
import { WorkspaceGuard } from "../tools/workspace-guard.js";

const run = promisify(execFile);

import { attachedContextMarker } from "../ui/tui/attached-context.js";

const maximumCharacters = 100_000;
const mentionPattern = /(^|\s)@(git-changes|https?:\/\/[^\s]+|[^\s@]+)/g;

export interface Mention {
  kind: "file" | "folder" | "url" | "git-changes" | "image" | "problem";
  target: string;
  content: string;
  image?: ImageContent;
}

const maximumImageBytes = 5 * 1024 * 1024;

async function imageFile(path: string, display: string): Promise<Mention> {
  const mediaType = imageMediaType(path)!;
  const bytes = await readFile(path);
  if (bytes.length > maximumImageBytes) return { kind: "problem", target: display, content: `${display} is larger than 5 MB; the image was not attached.` };
  return { kind: "image", target: display, content: "", image: { type: "image", mediaType, data: bytes.toString("base64") } };
}

function cut(text: string): string {
  return text.length > maximumCharacters ? `${text.slice(0, maximumCharacters)}\n[cut at ${maximumCharacters} characters]` : text;
}

async function fileOrFolder(guard: WorkspaceGuard, requested: string): Promise<Mention> {
  const resolved = guard.resolve(requested);
  if (!resolved.inside) return { kind: "problem", target: requested, content: `@${requested} is outside the workspace; only files inside it can be attached.` };
  if (resolved.ignored) return { kind: "problem", target: requested, content: `@${requested} is hidden by the workspace's .cairnignore; it was not attached.` };
  const info = await stat(resolved.real).catch(() => undefined);
  if (info === undefined) return { kind: "problem", target: requested, content: `@${requested}: no such file or folder in the workspace.` };
  if (info.isDirectory()) {
    const entries = await readdir(resolved.real, { withFileTypes: true });
    const lines = entries
      .filter((entry) => entry.name !== ".git" && !guard.isIgnored(join(resolved.real, entry.name)))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    return { kind: "folder", target: resolved.display, content: lines.join("\n") };
  }
  if (imageMediaType(resolved.real) !== undefined) return imageFile(resolved.real, resolved.display);
  const bytes = await readFile(resolved.real);
  if (bytes.subarray(0, 8000).includes(0)) return { kind: "problem", target: requested, content: `@${requested} is a binary file; it was not attached.` };
  return { kind: "file", target: resolved.display, content: cut(bytes.toString("utf8")) };
}

async function page(address: string, fetchPage: typeof fetch): Promise<Mention> {
  try {
    const response = await fetchPage(address, { redirect: "follow", signal: AbortSignal.timeout(30_000), headers: { "user-agent": "cairn" } });
    if (!response.ok) return { kind: "problem", target: address, content: `@${address} answered HTTP ${response.status}.` };
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    const content = /html/i.test(type) ? htmlToMarkdown(text, response.url || address).markdown : text;
    return { kind: "url", target: address, content: cut(content) };
  } catch (error) {
    return { kind: "problem", target: address, content: `@${address} could not be fetched: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function gitChanges(workspace: string): Promise<Mention> {
  try {
    const diff = await run("git", ["diff", "HEAD", "--no-color"], { cwd: workspace, maxBuffer: 16 * 1024 * 1024 }).catch(() => run("git", ["diff", "--no-color"], { cwd: workspace, maxBuffer: 16 * 1024 * 1024 }));
    const untracked = await run("git", ["ls-files", "--others", "--exclude-standard"], { cwd: workspace });
    const guard = new WorkspaceGuard(workspace);
    // Files hidden by the ignore file are not named either.
    const files = untracked.stdout
      .split("\n")
      .filter((file) => file !== "" && !guard.isIgnored(join(guard.root, file)))
      .join("\n");
    const content = `${diff.stdout.trim() || "(no changes to tracked files)"}${files === "" ? "" : `\n\nUntracked files:\n${files}`}`;
    return { kind: "git-changes", target: "working tree", content: cut(content) };
  } catch (error) {
    return { kind: "problem", target: "git-changes", content: `@git-changes: not a git repository or git failed (${error instanceof Error ? error.message : String(error)}).` };
  }
}

/** The mentions a text holds, in order, without duplicates. */
export function findMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(mentionPattern)) {
    const target = match[2]!.replace(/[.,;:!?)]+$/, "");
    // `@server:uri` names an MCP resource: the session attaches it once the server is up.
    if (/^[A-Za-z0-9_-]+:[A-Za-z][\w+.-]*:/.test(target)) continue;
    if (target !== "" && !found.includes(target)) found.push(target);
  }
  return found;
}

/** Reads every mention of `text`; a mention that cannot be read becomes a note, never an error. */
export async function resolveMentions(text: string, options: { workspace: string; fetch?: typeof fetch }): Promise<Mention[]> {
  const guard = new WorkspaceGuard(options.workspace);
  const mentions: Mention[] = [];
  for (const target of findMentions(text)) {
    if (target === "git-changes") mentions.push(await gitChanges(options.workspace));
    else if (/^https?:\/\//.test(target)) mentions.push(await page(target, options.fetch ?? fetch));
    else mentions.push(await fileOrFolder(guard, target));
  }
  return mentions;
}

/** Image files named by a path of their own (dragged into the terminal or pasted): `/home/me/shot.png`, `'~/a b.png'`. */
export function findImagePaths(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(^|\s)(['"]?)((?:\/|~\/)[^'"\n]*?\.(?:png|jpe?g|gif|webp))\2(?=\s|$)/gi)) {
    const path = match[3]!;
    if (!found.includes(path)) found.push(path);
  }
  return found;
}

/** The message with its attachments and the images it names (mentioned or pasted as a path). */
export async function expandMentionsWithImages(text: string, options: { workspace: string; fetch?: typeof fetch }): Promise<{ text: string; images: ImageContent[] }> {
  const mentions = await resolveMentions(text, options);
  for (const path of findImagePaths(text)) {
    const absolute = path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isFile() === true) mentions.push(await imageFile(absolute, path));
  }
  const images = mentions.flatMap((mention) => (mention.image === undefined ? [] : [mention.image]));
  return { text: formatAttachments(text, mentions), images };
}

/** The message with its attachments, as the model receives it (the text unchanged when it mentions nothing). */
export async function expandMentions(text: string, options: { workspace: string; fetch?: typeof fetch }): Promise<string> {
  return formatAttachments(text, await resolveMentions(text, options));
}

function formatAttachments(text: string, mentions: Mention[]): string {
  if (mentions.length === 0) return text;
  const parts = mentions.map((mention) => {
    switch (mention.kind) {
      case "file":
        return `<file path="${mention.target}">\n${mention.content}\n</file>`;
      case "folder":
        return `<folder path="${mention.target}">\n${mention.content}\n</folder>`;
      case "url":
        return `<url href="${mention.target}">\n${mention.content}\n</url>`;
      case "git-changes":
        return `<git_changes>\n${mention.content}\n</git_changes>`;
      case "image":
        return `<image path="${mention.target}">(attached as an image)</image>`;
      case "problem":
        return `<note>${mention.content}</note>`;
    }
  });
  return `${text}${attachedContextMarker}\n${parts.join("\n")}\n</attached_context>`;
}

/** Completions of a partial `@path` for the TUI: entries of its folder that start with the rest. */
export async function completeMentionPath(partial: string, workspace: string): Promise<string[]> {
  const guard = new WorkspaceGuard(workspace);
  const slash = partial.lastIndexOf("/");
  const folderPart = slash === -1 ? "" : partial.slice(0, slash + 1);
  const namePart = slash === -1 ? partial : partial.slice(slash + 1);
  const folder = guard.resolve(folderPart === "" ? "." : folderPart);
  if (!folder.inside) return [];
  const entries = await readdir(folder.real, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.name.startsWith(namePart) && entry.name !== ".git" && !guard.isIgnored(join(folder.real, entry.name)))
    .map((entry) => `${folderPart}${entry.name}${entry.isDirectory() ? "/" : ""}`)
    .sort();
}

/** For `cairn run` and `cairn -p`: the task with its mentions attached (unchanged if it has none or the folder is wrong). */
export async function expandTaskMentions(task: string, cwdFlag: string | undefined): Promise<string> {
  if (findMentions(task).length === 0) return task;
  try {
    return await expandMentions(task, { workspace: resolvePath(process.cwd(), cwdFlag ?? ".") });
  } catch {
    return task;
  }
}

/** `--image FILE` (repeatable): the images, or an error naming the file that cannot be sent. */
export async function readImageFlags(files: readonly string[]): Promise<{ images: ImageContent[] } | { error: string }> {
  const images: ImageContent[] = [];
  for (const file of files) {
    const absolute = resolvePath(process.cwd(), file);
    if (imageMediaType(absolute) === undefined) return { error: `--image ${file}: not a png, jpeg, gif or webp file` };
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isFile() !== true) return { error: `--image ${file}: no such file` };
    const mention = await imageFile(absolute, file);
    if (mention.image === undefined) return { error: `--image ${mention.content}` };
    images.push(mention.image);
  }
  return { images };
}
