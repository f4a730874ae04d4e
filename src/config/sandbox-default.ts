/**
 * The sandbox when nobody chose one (#14): `workspace-write` once the user
 * opted in (`cairn sandbox enable`) and bubblewrap works here; otherwise off,
 * with a one-line notice saying how to turn it on. An explicit choice (flag,
 * environment, a config's `sandbox`) is left alone, and so is a user who
 * answered no (`cairn sandbox disable`): no notice for them.
 */
import type { SandboxMode } from "../security/security-decision.js";

export type BubblewrapProbe = () => { ok: true } | { ok: false; message: string };

export interface SandboxDefault {
  mode: SandboxMode;
  /** Where the mode came from, for `cairn config` and `cairn sandbox`. */
  detail: string;
  /** One line for stderr when the sandbox ended up off without anyone choosing off. */
  notice: string | undefined;
}

export function sandboxDefault(options: { optIn: boolean | undefined; userFile: string; probe: BubblewrapProbe }): SandboxDefault {
  if (options.optIn === false) return { mode: "off", detail: `${options.userFile} (sandboxOptIn false: cairn sandbox disable)`, notice: undefined };
  if (options.optIn === undefined) {
    return {
      mode: "off",
      detail: "built-in default (not opted in)",
      notice: 'the sandbox is off: commands run unconfined. Turn it on once with `cairn sandbox enable` (bubblewrap), or say `cairn sandbox disable` to keep it off without this notice.',
    };
  }
  const usable = options.probe();
  if (usable.ok) return { mode: "workspace-write", detail: `${options.userFile} (opted in: sandboxOptIn, cairn sandbox enable)`, notice: undefined };
  return {
    mode: "off",
    detail: `${options.userFile} (opted in, but bubblewrap is not usable here)`,
    notice: `the sandbox is off although you opted in (cairn sandbox enable): ${usable.message}.`,
  };
}
