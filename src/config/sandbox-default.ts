/**
 * The sandbox in force (issue 26: the sandbox is the boundary). Nobody chose:
 * `workspace-write` wherever bubblewrap works. Where it cannot run, the
 * sandbox is "unavailable": cairn says so once, and every command that is not
 * known read-only is asked, `--yes` or not, until the user turns the sandbox
 * off explicitly. An explicit off (a flag, the user's config, or a trusted
 * project's) is honoured, and every run says in one line what that means.
 */
import type { SandboxMode } from "../security/security-decision.js";

export type BubblewrapProbe = () => { ok: true } | { ok: false; message: string };

export interface SandboxChoice {
  mode: SandboxMode;
  /** Off because bubblewrap cannot run here and nobody turned the sandbox off: commands are asked. */
  unavailable: boolean;
  /** Where the mode came from, for `cairn config` and `cairn sandbox`. */
  detail: string;
  /** One line for stderr, said once per run, when commands run without the sandbox. */
  notice: string | undefined;
}

export const offNotice = (where: string): string =>
  `the sandbox is off (${where}): commands, hooks and MCP servers run unconfined, with all your permissions; only the rules and your approvals stand between them and your files, keys and network.`;

export function sandboxDefault(options: {
  /** The mode someone chose, and where; undefined when nobody did. */
  chosen: { mode: SandboxMode; detail: string } | undefined;
  /** The user's `sandboxOptIn` of earlier versions: false was `cairn sandbox disable`. */
  legacyOptIn: boolean | undefined;
  userFile: string;
  probe: BubblewrapProbe;
}): SandboxChoice {
  const { chosen } = options;
  if (chosen !== undefined) {
    return { mode: chosen.mode, unavailable: false, detail: chosen.detail, notice: chosen.mode === "off" ? offNotice(chosen.detail) : undefined };
  }
  if (options.legacyOptIn === false) {
    const detail = `${options.userFile} (sandboxOptIn false: cairn sandbox disable)`;
    return { mode: "off", unavailable: false, detail, notice: offNotice(detail) };
  }
  const usable = options.probe();
  if (usable.ok) return { mode: "workspace-write", unavailable: false, detail: "built-in default (bubblewrap is usable here)", notice: undefined };
  return {
    mode: "off",
    unavailable: true,
    detail: "built-in default, but bubblewrap is not usable here",
    notice:
      `the sandbox cannot run here: ${usable.message}. Until it can, every command that is not known to be read-only is asked, even with --yes. ` +
      "Turn the sandbox off explicitly (--sandbox off, or cairn sandbox disable) to run commands unconfined.",
  };
}
