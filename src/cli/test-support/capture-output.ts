import { vi } from "vitest";

export interface CapturedOutput {
  stdout: string;
  stderr: string;
}

/**
 * Runs an in-process command with what it writes to stdout and stderr
 * appended to `output` instead of shown; `output` holds it even when the
 * command throws, so a test can check what a failure printed.
 */
export async function captureOutput(output: CapturedOutput, action: () => Promise<unknown>): Promise<void> {
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    output.stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    output.stderr += String(chunk);
    return true;
  });
  try {
    await action();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
