/** Runs ripgrep with `--json` and one line of context, stopping it once enough matches arrived. */
import { spawn } from "node:child_process";
import { SearchPatternError, type SearchFileResult, type SearchOutcome, type SearchRequest } from "./search-types.js";

interface RipgrepEvent {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
}

export async function ripgrepSearch(binary: string, request: SearchRequest): Promise<SearchOutcome> {
  const args = ["--json", "--context", "1", "--no-require-git", ...(request.pcre2 === true ? ["--pcre2"] : []), "--regexp", request.regex];
  if (request.filePattern !== undefined && request.filePattern.trim() !== "") args.push("--glob", request.filePattern.trim());
  args.push("--", request.folder);
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  const onAbort = () => child.kill("SIGKILL");
  request.signal.addEventListener("abort", onAbort, { once: true });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  const files: SearchFileResult[] = [];
  const byPath = new Map<string, SearchFileResult>();
  let matchCount = 0;
  let truncated = false;
  const exit = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  const onLine = (raw: string): void => {
    // The events that carry no line (a file's begin and end, the summary) are not parsed.
    if (truncated || raw.startsWith('{"type":"begin"') || raw.startsWith('{"type":"end"') || raw.startsWith('{"type":"summary"')) return;
    let event: RipgrepEvent;
    try {
      event = JSON.parse(raw) as RipgrepEvent;
    } catch {
      return;
    }
    if (event.type !== "match" && event.type !== "context") return;
    const path = event.data?.path?.text;
    const line = event.data?.line_number;
    if (path === undefined || line === undefined) return;
    const isMatch = event.type === "match";
    if (isMatch && matchCount >= request.limit) {
      truncated = true;
      child.kill("SIGKILL");
      return;
    }
    let file = byPath.get(path);
    if (file === undefined) {
      file = { path, lines: [] };
      byPath.set(path, file);
      files.push(file);
    }
    file.lines.push({ line, text: (event.data?.lines?.text ?? "").replace(/\r?\n$/, ""), isMatch });
    if (isMatch) matchCount++;
  };
  // Lines are taken from each chunk as it arrives, in one synchronous pass (no wait per line).
  let rest = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    let start = 0;
    for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
      onLine(rest === "" ? chunk.slice(start, end) : rest + chunk.slice(start, end));
      rest = "";
      start = end + 1;
    }
    rest += chunk.slice(start);
  });
  const code = await exit;
  if (rest !== "") onLine(rest);
  request.signal.removeEventListener("abort", onAbort);
  if (code === 2 && !truncated && matchCount === 0 && /regex|parse|syntax/i.test(stderr)) {
    throw new SearchPatternError(stderr.trim());
  }
  // A trailing context line after the last kept match is fine; leading context of a dropped match is not.
  for (const file of files) {
    while (file.lines.length > 0 && file.lines[file.lines.length - 1]?.isMatch === false && truncated) {
      const last = file.lines[file.lines.length - 1];
      const previous = file.lines[file.lines.length - 2];
      if (last !== undefined && previous !== undefined && previous.isMatch && last.line === previous.line + 1) break;
      file.lines.pop();
    }
  }
  return { files: files.filter((file) => file.lines.some((line) => line.isMatch)), matchCount, truncated };
}
