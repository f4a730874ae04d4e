/**
 * The script files a hook command runs, so that trusting a project's hooks
 * pins their content: `./scripts/check.sh`, `python3 .claude/hooks/x.py`,
 * `"$CLAUDE_PROJECT_DIR"/.claude/hooks/y.sh`. A script in the workspace can be
 * rewritten (by the model, say); the hook must then wait for trust again.
 *
 * This is a static reading, not a shell: it finds the program of each simple
 * command and, for an interpreter, its script argument. What a script runs
 * in turn is not followed.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** Programs whose first non-option argument is the script they run. */
const interpreters = new Set(["sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3", "python2", "node", "deno", "bun", "tsx", "ts-node", "ruby", "perl", "php", "pwsh", "lua", "Rscript", "osascript"]);
/** Options after which an interpreter runs text or a module, not a script file. */
const inlineOptions = new Set(["-c", "-e", "-m", "--eval", "-p", "--print", "-r", "-x"]);
/** Words that only run the next word: `env`, `exec`, `time` ... */
const wrappers = new Set(["env", "exec", "command", "time", "nice", "nohup", "builtin"]);
const separators = new Set([";", "&", "|", "&&", "||", "(", ")", "!"]);

interface Word {
  text: string;
  /** Holds an expansion other than the project folder or home: its value is unknown here. */
  unknown: boolean;
}

const projectVariables = /\$(?:\{(?:CLAUDE_PROJECT_DIR|CAIRN_PROJECT_DIR)\}|CLAUDE_PROJECT_DIR\b|CAIRN_PROJECT_DIR\b)/g;
const homeVariables = /\$(?:\{HOME\}|HOME\b)/g;

/** Splits a command line into words and separators, with quotes removed and the project folder expanded. */
function tokens(command: string, workspace: string): Array<Word | { separator: string }> {
  const result: Array<Word | { separator: string }> = [];
  let text = "";
  let unknown = false;
  let inWord = false;
  const expand = (raw: string): string => {
    const expanded = raw.replace(projectVariables, workspace).replace(homeVariables, homedir());
    if (expanded.includes("$") || expanded.includes("`")) unknown = true;
    return expanded;
  };
  const end = (): void => {
    if (inWord) result.push({ text: text.startsWith("~/") ? `${homedir()}${text.slice(1)}` : text, unknown });
    text = "";
    unknown = false;
    inWord = false;
  };
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] ?? "";
    if (character === "'") {
      const close = command.indexOf("'", index + 1);
      const stop = close === -1 ? command.length : close;
      text += command.slice(index + 1, stop);
      inWord = true;
      index = stop;
    } else if (character === '"') {
      let stop = index + 1;
      while (stop < command.length && command[stop] !== '"') stop += command[stop] === "\\" ? 2 : 1;
      text += expand(command.slice(index + 1, stop).replace(/\\([$`"\\])/g, "$1"));
      inWord = true;
      index = stop;
    } else if (character === "\\") {
      text += command[index + 1] ?? "";
      inWord = true;
      index += 1;
    } else if (/\s/.test(character)) {
      end();
      if (character === "\n") result.push({ separator: ";" });
    } else if (";&|()!<>".includes(character)) {
      end();
      const pair = command.slice(index, index + 2);
      if (pair === "&&" || pair === "||") {
        result.push({ separator: pair });
        index += 1;
      } else if (character === "<" || character === ">") {
        // A redirection's target is data, not a program: skip it.
        result.push({ separator: "redirect" });
      } else {
        result.push({ separator: character });
      }
    } else {
      let stop = index;
      while (stop < command.length && !/[\s'"\\;&|()!<>]/.test(command[stop] ?? "")) stop += 1;
      text += expand(command.slice(index, stop));
      inWord = true;
      index = stop - 1;
    }
  }
  end();
  return result;
}

/** The words of `command` that name a script it runs (before resolving them). */
function scriptWords(command: string, workspace: string): Array<Word & { role: "program" | "script" }> {
  const found: Array<Word & { role: "program" | "script" }> = [];
  let position: "program" | "arguments" | "script" | "done" = "program";
  let skipNext = false;
  for (const token of tokens(command, workspace)) {
    if ("separator" in token) {
      if (token.separator === "redirect") skipNext = true;
      else if (separators.has(token.separator)) position = "program";
      continue;
    }
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (position === "program") {
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token.text) || wrappers.has(token.text)) continue;
      found.push({ ...token, role: "program" });
      const name = token.text.split("/").pop() ?? "";
      position = interpreters.has(name) || /^python\d/.test(name) ? "script" : "arguments";
    } else if (position === "script") {
      if (inlineOptions.has(token.text)) position = "done";
      else if (!token.text.startsWith("-")) {
        found.push({ ...token, role: "script" });
        position = "arguments";
      }
    }
  }
  return found;
}

export interface HookScript {
  /** Relative to the workspace. */
  path: string;
  /** The content's hash, or undefined when there is no such file (yet). */
  hash: string | undefined;
}

/** The files in `workspace` that `command` runs, with their content's hash. */
export async function hookScripts(command: string, workspace: string): Promise<HookScript[]> {
  const scripts = new Map<string, HookScript>();
  for (const word of scriptWords(command, workspace)) {
    if (word.unknown || word.text === "") continue;
    // A bare program name (`python3`, `jq`) is looked up on PATH, not in the workspace.
    const onPath = word.role === "program" && !word.text.includes("/");
    const absolute = isAbsolute(word.text) ? word.text : resolve(workspace, word.text);
    const inside = relative(workspace, absolute);
    if (inside === "" || inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside)) continue;
    const info = await stat(absolute).catch(() => undefined);
    if (onPath) continue;
    if (info !== undefined && !info.isFile()) continue;
    const content = info === undefined ? undefined : await readFile(absolute).catch(() => undefined);
    scripts.set(inside, { path: inside, hash: content === undefined ? undefined : createHash("sha256").update(content).digest("hex") });
  }
  return [...scripts.values()];
}

/** Fingerprint parts for the scripts: none when there are none, so other hooks keep their fingerprint. */
export function scriptParts(scripts: readonly HookScript[]): string[] {
  return scripts.map((script) => `script ${script.path} ${script.hash ?? "missing"}`);
}

/**
 * The files `command` runs wherever they are (absolute paths of existing
 * files): a user's hook script in `~/.claude/hooks/` must stay readable in
 * the sandbox, which hides that folder. Words cairn cannot read statically
 * (another variable) are left out.
 */
export async function commandFiles(command: string, workspace: string): Promise<string[]> {
  const files = new Set<string>();
  for (const word of scriptWords(command, workspace)) {
    if (word.unknown || word.text === "" || (word.role === "program" && !word.text.includes("/"))) continue;
    const absolute = isAbsolute(word.text) ? word.text : resolve(workspace, word.text);
    if ((await stat(absolute).catch(() => undefined))?.isFile() === true) files.add(absolute);
  }
  return [...files];
}
