import { afterEach, describe, expect, it } from "vitest";
import type { SayMeta } from "../../task/contracts/message-meta.js";
import type { SayType, UiMessage } from "../../task/contracts/messages.js";
import { FakeController } from "./test-support/fake-terminal.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

/** A `say` as the Task sends it; its meta is typed as its writers declare it (message-meta.ts). */
const say = <K extends SayType>(id: string, kind: K, text: string, extra: { partial?: boolean; meta?: SayMeta<K> } = {}): UiMessage => ({
  id,
  ts: 0,
  type: "say",
  say: kind,
  text,
  partial: extra.partial ?? false,
  ...(extra.meta === undefined ? {} : { meta: extra.meta }),
});

describe("progress: a silent command's elapsed time and the growing token counts", () => {
  it("a silent command shows how long it has been running; output ending it removes the timer", async () => {
    const controller = new FakeController();
    const ui = (mounted = mountApp({ controller }));
    ui.host.onMessage(say("c", "command", "sleep 30", { meta: { tool: "execute_command", command: "sleep 30", approval: "auto" } }));
    await ui.tick();
    await ui.tick(12_000);
    expect(ui.frame()).toMatch(/Running sleep 30 · 1[12]s/);
    ui.host.onMessage(say("o", "command_output", "", { meta: { tool: "execute_command", end: { kind: "exited", exitCode: 0, signal: null }, durationMs: 12_000 } }));
    await ui.tick();
    expect(ui.frame()).not.toContain("Running sleep 30");
  });

  it("the status line counts tokens in and out and the cost as they grow", async () => {
    const controller = new FakeController();
    controller.current = { ...controller.current, tokensIn: 12_300, tokensOut: 450, cost: 0.0421 };
    const ui = (mounted = mountApp({ controller }));
    await ui.tick();
    expect(ui.frame()).toMatch(/↑12k ↓450 \$0\.0421/);
  });

  it("the status line shows what is left of the task's budgets", async () => {
    const controller = new FakeController();
    controller.current = { ...controller.current, budgetLeft: "budget left: 3 requests, $0.40" };
    const ui = (mounted = mountApp({ controller }));
    await ui.tick();
    expect(ui.frame()).toContain("budget left: 3 requests, $0.40");
  });
});
