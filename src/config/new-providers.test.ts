import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, defaultModels, requireApiKey, resolveSettings } from "./index.js";
import type { CliFlags } from "./index.js";
import { createConfigFolders, type ConfigFolders } from "./test-support/folders.js";

let folders: ConfigFolders;
beforeEach(async () => {
  folders = await createConfigFolders();
});
afterEach(async () => {
  await folders.cleanup();
});

function resolveWith(options: { flags?: CliFlags; env?: NodeJS.ProcessEnv } = {}) {
  return resolveSettings({ flags: options.flags ?? {}, env: options.env ?? {}, cwd: folders.project, userConfigDir: folders.userConfigDir });
}

describe("openai-responses and gemini in the configuration", () => {
  it("openai-responses takes OPENAI_API_KEY and OPENAI_BASE_URL, and gpt-5.4 by default", async () => {
    const settings = await resolveWith({ flags: { provider: "openai-responses" }, env: { OPENAI_API_KEY: "sk-openai-key-123456", OPENAI_BASE_URL: "https://gateway.example/v1" } });
    expect(settings.model).toBe(defaultModels["openai-responses"]);
    expect(settings.model).toBe("gpt-5.4");
    expect(settings.apiKey?.reveal()).toBe("sk-openai-key-123456");
    expect(settings.baseUrl).toBe("https://gateway.example/v1");
  });

  it("gemini takes GEMINI_API_KEY, else GOOGLE_API_KEY, else says which to set", async () => {
    const fromGemini = await resolveWith({ flags: { provider: "gemini" }, env: { GEMINI_API_KEY: "AIza-gemini-123456", GOOGLE_API_KEY: "AIza-google-123456" } });
    expect(fromGemini.apiKey?.reveal()).toBe("AIza-gemini-123456");
    expect(fromGemini.model).toBe("gemini-2.5-pro");
    const fromGoogle = await resolveWith({ flags: { provider: "gemini" }, env: { GOOGLE_API_KEY: "AIza-google-123456" } });
    expect(fromGoogle.apiKey?.reveal()).toBe("AIza-google-123456");
    expect(fromGoogle.sourceDetails["apiKey"]).toBe("GOOGLE_API_KEY");
    const none = await resolveWith({ flags: { provider: "gemini" } });
    expect(() => requireApiKey(none)).toThrow(ConfigError);
    expect(() => requireApiKey(none)).toThrow(/GEMINI_API_KEY \(or GOOGLE_API_KEY\)/);
  });

  it("profiles can name either provider", async () => {
    await folders.writeUserConfig({ profiles: { codex: { provider: "openai-responses", model: "gpt-5.4-mini" }, google: { provider: "gemini", model: "gemini-2.5-flash" } } });
    expect(await resolveWith({ flags: { profile: "codex" } })).toMatchObject({ provider: "openai-responses", model: "gpt-5.4-mini" });
    expect(await resolveWith({ flags: { profile: "google" } })).toMatchObject({ provider: "gemini", model: "gemini-2.5-flash" });
  });
});
