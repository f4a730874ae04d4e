/**
 * The sandbox is on by default wherever bubblewrap works; where it cannot run
 * it is "unavailable" (commands are asked), and turning it off is explicit and
 * said at every run.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSettings } from "./index.js";
import type { BubblewrapProbe } from "./sandbox-default.js";
import { createConfigFolders, type ConfigFolders } from "./test-support/folders.js";

let folders: ConfigFolders;
beforeEach(async () => {
  folders = await createConfigFolders();
});
afterEach(async () => {
  await folders.cleanup();
});

const usable: BubblewrapProbe = () => ({ ok: true });
const missing: BubblewrapProbe = () => ({ ok: false, message: "the sandbox needs bubblewrap (bwrap), which is not installed" });

const resolveWith = (options: { flags?: Record<string, unknown>; probe?: BubblewrapProbe; trust?: boolean } = {}) =>
  resolveSettings({
    flags: options.flags ?? {},
    env: { ANTHROPIC_API_KEY: "k" },
    cwd: folders.project,
    userConfigDir: folders.userConfigDir,
    probeSandbox: options.probe ?? usable,
    ...(options.trust === undefined ? {} : { trust: options.trust }),
  });

const userConfig = (config: Record<string, unknown>) => writeFile(join(folders.userConfigDir, "config.json"), JSON.stringify(config));

describe("the sandbox default", () => {
  it("nobody chose and bubblewrap works: workspace-write, no notice", async () => {
    const settings = await resolveWith();
    expect(settings.sandbox).toBe("workspace-write");
    expect(settings.sandboxUnavailable).toBe(false);
    expect(settings.sandboxNotice).toBeUndefined();
    expect(settings.sourceDetails["sandbox"]).toMatch(/built-in default/);
  });

  it("nobody chose and bubblewrap cannot run: unavailable, with one line saying why and that commands will be asked", async () => {
    const settings = await resolveWith({ probe: missing });
    expect(settings.sandbox).toBe("off");
    expect(settings.sandboxUnavailable).toBe(true);
    expect(settings.sandboxNotice).toMatch(/cannot run here: the sandbox needs bubblewrap.*asked, even with --yes.*--sandbox off/);
    expect(settings.sandboxNotice).not.toContain("\n");
  });

  it("turned off explicitly (flag, user config, the old sandboxOptIn false): off, and the notice says what that means and where it came from", async () => {
    const flagged = await resolveWith({ flags: { sandbox: "off" } });
    expect(flagged.sandbox).toBe("off");
    expect(flagged.sandboxUnavailable).toBe(false);
    expect(flagged.sandboxNotice).toMatch(/the sandbox is off \(--sandbox\): commands.*run unconfined/);
    await userConfig({ sandbox: "off" });
    expect((await resolveWith()).sandboxNotice).toMatch(/the sandbox is off \(.*config\.json\)/);
    await userConfig({ sandboxOptIn: false });
    const declined = await resolveWith();
    expect(declined.sandbox).toBe("off");
    expect(declined.sandboxNotice).toMatch(/sandboxOptIn false/);
  });

  it("an explicit workspace-write is not a default: the probe is not asked (an unusable bubblewrap is an error when the session starts)", async () => {
    const probe: BubblewrapProbe = () => {
      throw new Error("the probe is only for the default");
    };
    const settings = await resolveWith({ flags: { sandbox: "workspace-write" }, probe });
    expect(settings.sandbox).toBe("workspace-write");
  });

  it("an untrusted project can turn the sandbox neither off nor, through the old opt-in, anything else", async () => {
    await folders.writeProjectConfig({ sandbox: "off", sandboxOptIn: false });
    const settings = await resolveWith();
    expect(settings.sandbox).toBe("workspace-write");
    expect(settings.trust.gated).toContain("sandbox");
  });
});
