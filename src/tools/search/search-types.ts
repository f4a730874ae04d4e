/** One search hit with a line of context on each side, as both searchers report it. */
export interface SearchLine {
  line: number;
  text: string;
  isMatch: boolean;
}

export interface SearchFileResult {
  /** Absolute path of the file. */
  path: string;
  lines: SearchLine[];
}

export interface SearchOutcome {
  files: SearchFileResult[];
  matchCount: number;
  truncated: boolean;
}

export class SearchPatternError extends Error {}

export interface SearchRequest {
  folder: string;
  regex: string;
  filePattern?: string;
  limit: number;
  signal: AbortSignal;
  /** Use ripgrep's PCRE2 engine (look-around, backreferences). */
  pcre2?: boolean;
}
