/**
 * #14 item "sandbox default": workspace-write when bubblewrap is usable and the
 * user opted in once; otherwise off with a one-line notice, unless someone
 * chose (a flag, a config's `sandbox`, or the user's `sandboxOptIn: false`).
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

describe("#14 sandbox default", () => {
  it("not opted in: off, with a one-line notice saying how to turn it on", async () => {
    const settings = await resolveWith();
    expect(settings.sandbox).toBe("off");
    expect(settings.sandboxNotice).toMatch(/cairn sandbox enable/);
    expect(settings.sandboxNotice).not.toContain("\n");
  });

  it("opted in once and bubblewrap usable: workspace-write, no notice, the opt-in named as the source", async () => {
    await userConfig({ sandboxOptIn: true });
    const settings = await resolveWith();
    expect(settings.sandbox).toBe("workspace-write");
    expect(settings.sandboxNotice).toBeUndefined();
    expect(settings.sourceDetails["sandbox"]).toMatch(/opted in/);
  });

  it("opted in but bubblewrap unusable: off, and the notice says why (never a silent fallback)", async () => {
    await userConfig({ sandboxOptIn: true });
    const settings = await resolveWith({ probe: missing });
    expect(settings.sandbox).toBe("off");
    expect(settings.sandboxNotice).toMatch(/although you opted in.*bubblewrap/);
  });

  it("an explicit choice wins and says nothing: --sandbox off, sandbox off in the user config, sandboxOptIn false", async () => {
    await userConfig({ sandboxOptIn: true });
    const flagged = await resolveWith({ flags: { sandbox: "off" } });
    expect(flagged.sandbox).toBe("off");
    expect(flagged.sandboxNotice).toBeUndefined();
    await userConfig({ sandbox: "off" });
    expect((await resolveWith()).sandboxNotice).toBeUndefined();
    await userConfig({ sandboxOptIn: false });
    const declined = await resolveWith();
    expect(declined.sandbox).toBe("off");
    expect(declined.sandboxNotice).toBeUndefined();
  });

  it("an explicit workspace-write is not a default: no fallback, whatever the probe says", async () => {
    const probe: BubblewrapProbe = () => {
      throw new Error("the probe is only for the opted-in default");
    };
    const settings = await resolveWith({ flags: { sandbox: "workspace-write" }, probe });
    expect(settings.sandbox).toBe("workspace-write");
  });

  it("an untrusted project can neither turn the opted-in sandbox off nor opt in or out for the user", async () => {
    await userConfig({ sandboxOptIn: true });
    await folders.writeProjectConfig({ sandbox: "off", sandboxOptIn: false });
    const settings = await resolveWith();
    expect(settings.sandbox).toBe("workspace-write");
    expect(settings.trust.gated).toContain("sandbox");
    await userConfig({});
    await folders.writeProjectConfig({ sandboxOptIn: true });
    expect((await resolveWith()).sandbox).toBe("off");
  });
});
