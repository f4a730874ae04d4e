/**
 * What cairn knows about programs, by name: which run another command (wrappers,
 * shells, interpreters, package runners) and which write to their path arguments.
 * Read by the command-effects reader (command-effects.ts).
 */

/** Wrappers that only run their argument: the rules judge what they run. */
export const transparentWrappers = new Set([
  "env",
  "timeout",
  "nice",
  "nohup",
  "time",
  "command",
  "builtin",
  "stdbuf",
  "ionice",
  "unbuffer",
  "chronic",
  "setsid",
  "watch",
  "xargs",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
]);

export const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"]);
export const interpreters: Record<string, string[]> = {
  python: ["-c"],
  python2: ["-c"],
  python3: ["-c"],
  node: ["-e", "--eval", "-p", "--print"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
  php: ["-r"],
  lua: ["-e"],
  bun: ["-e", "--eval"],
  deno: ["eval"],
  Rscript: ["-e"],
  osascript: ["-e"],
  tclsh: [],
  irb: [],
};
/** Wrapper → options that take a value (so the value is not mistaken for the command). */
export const simpleWrappers: Record<string, { valued: string[]; leading?: number }> = {
  sudo: { valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "--user", "--group"] },
  doas: { valued: ["-u", "-C"] },
  nice: { valued: ["-n", "--adjustment"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "-o"] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  setsid: { valued: [] },
  stdbuf: { valued: ["-i", "-o", "-e"] },
  ionice: { valued: ["-c", "-n", "-t", "-p"] },
  unbuffer: { valued: [] },
  chronic: { valued: [] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], leading: 1 },
  flock: { valued: ["-w", "-E", "--timeout", "--conflict-exit-code"], leading: 1 },
  strace: { valued: ["-e", "-o", "-p", "-s"] },
  ltrace: { valued: ["-e", "-o", "-p"] },
  firejail: { valued: [] },
};
export const packageRunners: Record<string, string[]> = {
  npx: ["-p", "--package"],
  bunx: ["-p", "--package"],
  pnpx: [],
};
/** Interpreter options that run something other than a program read from the input. */
export const selfContainedOptions = new Set(["--test", "--version", "-v", "-V", "--help", "-h", "--check", "--run"]);
/** Commands whose plain (non-option) arguments are paths they write or remove. */
export const pathWriters = new Set(["cp", "mv", "ln", "tee", "touch", "mkdir", "rm", "rmdir", "unlink", "shred", "install", "rsync", "scp", "truncate", "mkfifo", "mknod", "patch"]);
/** Commands whose first plain argument is not a path (a mode or an owner). */
export const firstArgumentNotPath = new Set(["chmod", "chown", "chgrp"]);
