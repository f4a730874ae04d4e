import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSettings, trustQuestion } from "./index.js";
import { createConfigFolders, type ConfigFolders } from "./test-support/folders.js";

let folders: ConfigFolders;
beforeEach(async () => {
  folders = await createConfigFolders();
});
afterEach(async () => {
  await folders.cleanup();
});

describe("project hooks outside the config need trust", () => {
  it("an untrusted folder with .clinerules/hooks or hooks in .claude/settings.json is asked about them", async () => {
    await mkdir(join(folders.project, ".clinerules", "hooks"), { recursive: true });
    await writeFile(join(folders.project, ".clinerules", "hooks", "PreToolUse"), "#!/bin/sh\n");
    await mkdir(join(folders.project, ".claude"), { recursive: true });
    await writeFile(join(folders.project, ".claude", "settings.json"), JSON.stringify({ hooks: { Stop: [] } }));
    const settings = await resolveSettings({ flags: {}, env: {}, cwd: folders.project, userConfigDir: folders.userConfigDir });
    expect(settings.trust.gated).toEqual([".clinerules/hooks", ".claude/settings.json"]);
    expect(trustQuestion(settings.trust)).toContain("run the hooks in .clinerules/hooks, run the hooks in .claude/settings.json");
    const trusted = await resolveSettings({ flags: {}, env: {}, cwd: folders.project, userConfigDir: folders.userConfigDir, trust: true });
    expect(trusted.trust.gated).toEqual([]);
  });
});
