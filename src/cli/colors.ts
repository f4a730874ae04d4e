import picocolors from "picocolors";

/**
 * Colours for command output: only on a terminal, and never with NO_COLOR.
 * (picocolors alone also turns them on whenever CI is set, which would put
 * escape codes into logs and pipes.)
 */
export const colors = picocolors.createColors(process.stdout.isTTY === true && (process.env["NO_COLOR"] ?? "") === "");
