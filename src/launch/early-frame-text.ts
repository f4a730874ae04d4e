/**
 * The terminal UI's input box as Ink first draws it (src/ui/tui/components/input-line.tsx with
 * the placeholder "What should cairn do?"), byte for byte, and when the launcher may draw it
 * before the CLI bundle has loaded (src/launch/early-frame.ts).
 */

export const earlyPlaceholder = "What should cairn do?";

/** Ink's frame is at least 20 columns wide; below this width the placeholder is cut, which the early frame does not draw. */
export const narrowestEarlyFrame = 28;

const gray = (text: string): string => `\u001b[90m${text}\u001b[39m`;

/** The input box's three lines at this width, coloured as chalk colours them (level 1 or more: only the 16 basic colours are used). */
export function inputBoxLines(columns: number): string[] {
  const inside = columns - 2;
  const top = gray(`╭${"─".repeat(inside)}╮`);
  const bottom = gray(`╰${"─".repeat(inside)}╯`);
  // "│ › ▌What should cairn do?   │": border, padding, the arrow and its space, the cursor cell, the text, padding, border.
  const filler = " ".repeat(columns - 7 - earlyPlaceholder.length);
  const middle = `${gray("│")} \u001b[36m› \u001b[39m\u001b[7m \u001b[27m\u001b[90m${earlyPlaceholder}\u001b[39m${filler} ${gray("│")}`;
  return [top, middle, bottom];
}

/** Erases `count` lines upwards from the cursor's, leaving it at the start of the highest (ansi-escapes' `eraseLines`, as Ink uses it). */
export function eraseLines(count: number): string {
  let clear = "";
  for (let index = 0; index < count; index += 1) clear += `\u001b[2K${index < count - 1 ? "\u001b[1A" : ""}`;
  return count > 0 ? `${clear}\u001b[G` : "";
}

const colourFlags = /^--(no-)?colou?rs?(=.*)?$/;

/**
 * Whether chalk, which colours Ink's frames, colours this terminal (its supports-color rules for
 * the terminals it recognises); undefined when it is not sure to, or an environment variable or
 * flag decides: then the launcher draws nothing.
 */
function chalkColours(env: NodeJS.ProcessEnv, args: readonly string[]): boolean {
  if (["FORCE_COLOR", "CI", "TF_BUILD", "TEAMCITY_VERSION", "CONTINUOUS_INTEGRATION"].some((name) => name in env)) return false;
  if (args.some((arg) => colourFlags.test(arg))) return false;
  const term = env["TERM"] ?? "";
  if (term === "dumb") return false;
  return /-256(color)?$/i.test(term) || /^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(term) || "COLORTERM" in env;
}

/** Flags after which the terminal UI does not open on an empty prompt (print mode, a picker, a replayed task, JSON). */
const notAnEmptyPrompt = /^(-p|--print|-c|--continue|--resume(=.*)?|--json|--plain)$/;

/**
 * The early frame is drawn only for the terminal UI's form (the caller checks that), on a terminal
 * at both ends, in a colour terminal that chalk recognises, at least `narrowestEarlyFrame` wide,
 * and not when `CAIRN_NO_EARLY_PAINT` is set (to anything but "" or "0").
 */
export function mayPaintEarly(options: { args: readonly string[]; env: NodeJS.ProcessEnv; stdinIsTTY: boolean; stdoutIsTTY: boolean; columns: number; platform: string }): boolean {
  const { args, env } = options;
  const off = env["CAIRN_NO_EARLY_PAINT"];
  if (off !== undefined && off !== "" && off !== "0") return false;
  if (!options.stdinIsTTY || !options.stdoutIsTTY || options.platform === "win32") return false;
  if (options.columns < narrowestEarlyFrame) return false;
  if (args.some((arg) => notAnEmptyPrompt.test(arg))) return false;
  return chalkColours(env, args);
}
