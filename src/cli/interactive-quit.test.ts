import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import type { ResolvedSettings } from "../config/index.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { InteractiveController } from "./interactive.js";
import type { Session } from "../session/session.js";

describe("quitting while a session is still being created stops it cleanly", () => {
  it("stops it: the task never runs and the session (its log and lock) is closed", async () => {
    let release!: () => void;
    const created = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const session = {
      taskId: "t1",
      task: { mode: "act", abortTask: async () => void calls.push("abort") },
      provider: { model: { contextWindow: 1 } },
      run: async () => {
        calls.push("run");
        return { status: "completed" as const };
      },
      close: async () => void calls.push("close"),
    } as unknown as Session;
    let exited = 0;
    const controller = new InteractiveController({
      settings: { plan: false, model: "m", cwd: tmpdir() } as ResolvedSettings,
      host: new TuiHost(),
      exitWhenDone: false,
      onExit: () => (exited += 1),
      createSession: async () => {
        await created;
        return session;
      },
    });
    controller.submit("a task");
    controller.exit();
    release();
    await controller.close();
    expect(calls).not.toContain("run");
    expect(calls).toContain("close");
    expect(exited).toBe(1);
  });
});
