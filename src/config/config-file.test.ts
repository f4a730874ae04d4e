import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, resolveSettings } from "./index.js";
import { createConfigFolders, type ConfigFolders } from "./test-support/folders.js";

let folders: ConfigFolders;

beforeEach(async () => {
  folders = await createConfigFolders();
});

afterEach(async () => {
  await folders.cleanup();
});

function resolveProject() {
  return resolveSettings({ flags: {}, env: {}, cwd: folders.project, userConfigDir: folders.userConfigDir });
}

describe("config files", () => {
  it("a wrong value names the file and the key", async () => {
    await folders.writeUserConfig({ maxMistakes: "three", autoApprove: { commandsAll: "yes" } });
    const failure = resolveProject();
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(resolveProject()).rejects.toThrow(
      new RegExp(`${join(folders.userConfigDir, "config.json").replace(/[.]/g, "\\.")} has invalid settings:\\n  maxMistakes: .*\\n  autoApprove\\.commandsAll: .*expected boolean`),
    );
  });

  it("broken JSON gives the file and the line and column, without quoting the text", async () => {
    const file = join(folders.userConfigDir, "config.json");
    await folders.writeRaw(file, '{\n  "model": "x",\n  "apiKey": sk-secret-key-abcdef\n}');
    const error = await resolveProject().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`${file} is not valid JSON (line 3, column 13). Fix the file or remove it.`);
    expect((error as Error).message).not.toContain("sk-secret");
  });

  it("a file that is not an object is refused", async () => {
    await folders.writeRaw(join(folders.project, ".cairn", "config.json"), "[1, 2]");
    await expect(resolveProject()).rejects.toThrow(/must hold a JSON object/);
  });

  it("unknown keys are warnings and the rest of the file applies", async () => {
    await folders.writeProjectConfig({ modle: "typo", model: "kept", autoApprove: { editEverything: true } });
    const settings = await resolveProject();
    expect(settings.model).toBe("kept");
    expect(settings.warnings).toContain(`${join(folders.project, ".cairn", "config.json")}: unknown key "modle" ignored`);
    expect(settings.warnings.join("\n")).toContain('unknown key "editEverything" in autoApprove ignored');
  });
});
