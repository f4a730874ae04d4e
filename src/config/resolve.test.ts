import { inspect } from "node:util";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, defaultModels, requireApiKey } from "./index.js";
import type { CliFlags } from "./index.js";
import { createConfigFolders, type ConfigFolders } from "./test-support/folders.js";

let folders: ConfigFolders;

beforeEach(async () => {
  folders = await createConfigFolders();
});

afterEach(async () => {
  await folders.cleanup();
});

function resolveWith(options: { flags?: CliFlags; env?: NodeJS.ProcessEnv; trust?: boolean } = {}) {
  return folders.resolve(options);
}

describe("resolveSettings precedence", () => {
  it("uses defaults when nothing is configured, and names them as defaults", async () => {
    const settings = await resolveWith();
    expect(settings.provider).toBe("anthropic");
    expect(settings.model).toBe(defaultModels.anthropic);
    expect(settings.toolProtocol).toBe("xml");
    expect(settings.maxMistakes).toBe(3);
    expect(settings.onAsk).toBe("fail");
    expect(settings.askTimeoutMs).toBeUndefined();
    expect(settings.dataDir).toBe(join(homedir(), ".cairn"));
    expect(settings.autoApprove.readInside).toBe(true);
    expect(settings.autoApprove.editInside).toBe(false);
    expect(settings.stallTimeouts).toEqual({ firstChunkMs: 60_000, betweenChunksMs: 30_000 });
    expect(settings.retry.delaysMs).toEqual([2000, 4000, 8000]);
    expect(settings.sources["model"]).toBe("default");
    expect(settings.sources["provider"]).toBe("default");
    expect(settings.warnings).toEqual([]);
  });

  it("checkpoints are on by default, off with `checkpoints: false` in a config or --no-checkpoints", async () => {
    expect((await resolveWith()).checkpoints).toBe(true);
    await folders.writeUserConfig({ checkpoints: false });
    const fromConfig = await resolveWith({ flags: { checkpoints: true } });
    // Commander sets `checkpoints: true` when --no-checkpoints is absent: that must not hide the config.
    expect(fromConfig.checkpoints).toBe(false);
    expect(fromConfig.sources["checkpoints"]).toBe("user");
    await folders.writeUserConfig({ checkpoints: true });
    const fromFlag = await resolveWith({ flags: { checkpoints: false } });
    expect(fromFlag.checkpoints).toBe(false);
    expect(fromFlag.sourceDetails["checkpoints"]).toBe("--no-checkpoints");
  });

  it("orders flag > env > project > user > default, with each source named", async () => {
    await folders.writeUserConfig({ model: "user-model", maxMistakes: 5, toolProtocol: "native", parallelTools: true, dataDir: "/tmp/user-data" });
    await folders.writeProjectConfig({ model: "project-model", maxMistakes: 4, toolProtocol: "xml" });
    const env = { CAIRN_MODEL: "env-model", CAIRN_HOME: "/tmp/env-home" };

    const all = await resolveWith({ flags: { model: "flag-model" }, env });
    expect(all.model).toBe("flag-model");
    expect(all.sources["model"]).toBe("flag");
    expect(all.sourceDetails["model"]).toBe("--model");
    expect(all.dataDir).toBe("/tmp/env-home");
    expect(all.sources["dataDir"]).toBe("env");
    expect(all.sourceDetails["dataDir"]).toBe("CAIRN_HOME");
    expect(all.maxMistakes).toBe(4);
    expect(all.sources["maxMistakes"]).toBe("project");
    expect(all.sourceDetails["maxMistakes"]).toBe(join(folders.project, ".cairn", "config.json"));
    expect(all.toolProtocol).toBe("xml");
    expect(all.sources["toolProtocol"]).toBe("project");
    expect(all.parallelTools).toBe(true);
    expect(all.sources["parallelTools"]).toBe("user");
    expect(all.sources["onAsk"]).toBe("default");

    const noFlag = await resolveWith({ env });
    expect(noFlag.model).toBe("env-model");
    expect(noFlag.sources["model"]).toBe("env");
    expect(noFlag.sourceDetails["model"]).toBe("CAIRN_MODEL");

    const noEnv = await resolveWith();
    expect(noEnv.model).toBe("project-model");
    expect(noEnv.sources["model"]).toBe("project");
    expect(noEnv.dataDir).toBe("/tmp/user-data");
    expect(noEnv.sources["dataDir"]).toBe("user");

    await folders.writeProjectConfig({});
    const userOnly = await resolveWith();
    expect(userOnly.model).toBe("user-model");
    expect(userOnly.sources["model"]).toBe("user");
  });

  it("parses the run flags and applies --data-dir over CAIRN_HOME", async () => {
    const settings = await resolveWith({
      flags: { maxMistakes: "7", askTimeout: "1.5s", onAsk: "deny", yes: true, json: true, plan: true, dataDir: "/tmp/flag-data", toolProtocol: "native" },
      env: { CAIRN_HOME: "/tmp/env-home" },
    });
    expect(settings.maxMistakes).toBe(7);
    expect(settings.askTimeoutMs).toBe(1500);
    expect(settings.onAsk).toBe("deny");
    expect([settings.yes, settings.json, settings.plan]).toEqual([true, true, true]);
    expect(settings.dataDir).toBe("/tmp/flag-data");
    expect(settings.toolProtocol).toBe("native");
    expect(settings.sourceDetails["askTimeoutMs"]).toBe("--ask-timeout");
  });

  it("rejects bad flag values with the flag named", async () => {
    await expect(resolveWith({ flags: { provider: "watsonx" } })).rejects.toThrow(/--provider must be one of anthropic, openai, openai-responses, gemini, azure, bedrock, vertex, mock \(got "watsonx"\)/);
    await expect(resolveWith({ flags: { maxMistakes: "zero" } })).rejects.toThrow(/--max-mistakes must be a whole number/);
    await expect(resolveWith({ flags: { askTimeout: "soon" } })).rejects.toThrow(/--ask-timeout must be a duration/);
    await expect(resolveWith({ env: { CAIRN_PROVIDER: "x" } })).rejects.toThrow(/CAIRN_PROVIDER must be one of/);
    await expect(resolveWith({ flags: { baseUrl: "localhost:1234" } })).rejects.toThrow(/--base-url must be an http or https URL/);
    await expect(resolveWith({ flags: { cwd: "does-not-exist" } })).rejects.toBeInstanceOf(ConfigError);
  });

  it("uses OPENAI_BASE_URL only for the openai provider; CAIRN_BASE_URL wins", async () => {
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:9999/v1" };
    expect((await resolveWith({ env })).baseUrl).toBeUndefined();
    const openai = await resolveWith({ flags: { provider: "openai" }, env });
    expect(openai.baseUrl).toBe("http://127.0.0.1:9999/v1");
    expect(openai.sourceDetails["baseUrl"]).toBe("OPENAI_BASE_URL");
    expect(openai.model).toBe(defaultModels.openai);
    const both = await resolveWith({ flags: { provider: "openai" }, env: { ...env, CAIRN_BASE_URL: "http://localhost:1/v1" } });
    expect(both.baseUrl).toBe("http://localhost:1/v1");
  });
});

describe("profiles", () => {
  const ollama = { provider: "openai", baseUrl: "http://localhost:11434/v1", model: "qwen3" };

  it("applies the profile named in the user config, below env and flags", async () => {
    await folders.writeUserConfig({ model: "user-model", profile: "ollama", profiles: { ollama } });
    const settings = await resolveWith();
    expect(settings.profile).toBe("ollama");
    expect(settings.provider).toBe("openai");
    expect(settings.baseUrl).toBe("http://localhost:11434/v1");
    expect(settings.model).toBe("qwen3");
    expect(settings.sources["model"]).toBe("profile:ollama");
    expect(settings.sources["provider"]).toBe("profile:ollama");
    expect(settings.sources["profile"]).toBe("user");
    // A local server needs no key.
    expect(requireApiKey(settings)).toBeUndefined();

    const overridden = await resolveWith({ env: { CAIRN_MODEL: "llama3" } });
    expect(overridden.model).toBe("llama3");
    expect(overridden.sources["model"]).toBe("env");
  });

  it("--profile selects a profile and an unknown one is a clear error", async () => {
    await folders.writeUserConfig({ profiles: { ollama, work: { provider: "anthropic", apiKey: "sk-user-profile-key-123456" } } });
    const settings = await resolveWith({ flags: { profile: "work" } });
    expect(settings.provider).toBe("anthropic");
    expect(settings.apiKey?.reveal()).toBe("sk-user-profile-key-123456");
    expect(settings.sources["apiKey"]).toBe("profile:work");
    await expect(resolveWith({ flags: { profile: "nope" } })).rejects.toThrow(/profile "nope" \(from --profile\) is not defined\. Defined profiles: ollama, work\./);
  });
});

describe("API keys", () => {
  it("chooses --api-key, then CAIRN_API_KEY, then the provider's variable, then the user config", async () => {
    await folders.writeUserConfig({ apiKey: "user-config-key-1234567890" });
    const env = { CAIRN_API_KEY: "cairn-key-1234567890abcdef", ANTHROPIC_API_KEY: "anthropic-key-1234567890ab" };
    expect((await resolveWith({ flags: { apiKey: "flag-key-1234567890abcdef" }, env })).apiKey?.reveal()).toBe("flag-key-1234567890abcdef");
    const fromCairn = await resolveWith({ env });
    expect(fromCairn.apiKey?.reveal()).toBe("cairn-key-1234567890abcdef");
    expect(fromCairn.sourceDetails["apiKey"]).toBe("CAIRN_API_KEY");
    const fromAnthropic = await resolveWith({ env: { ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY, OPENAI_API_KEY: "openai-key-xxxxxxxxxxxxxx" } });
    expect(fromAnthropic.apiKey?.reveal()).toBe("anthropic-key-1234567890ab");
    expect(fromAnthropic.sourceDetails["apiKey"]).toBe("ANTHROPIC_API_KEY");
    const fromOpenai = await resolveWith({ flags: { provider: "openai" }, env: { ANTHROPIC_API_KEY: "a-key-xxxxxxxxxxxxxxxxx", OPENAI_API_KEY: "openai-key-xxxxxxxxxxxxxx" } });
    expect(fromOpenai.apiKey?.reveal()).toBe("openai-key-xxxxxxxxxxxxxx");
    const fromUser = await resolveWith();
    expect(fromUser.apiKey?.reveal()).toBe("user-config-key-1234567890");
    expect(fromUser.sources["apiKey"]).toBe("user");
  });

  it("never shows the key when the settings are printed or serialised", async () => {
    const settings = await resolveWith({ env: { ANTHROPIC_API_KEY: "sk-ant-secret-value-abcd" } });
    expect(JSON.stringify(settings)).not.toContain("sk-ant-secret-value");
    expect(inspect(settings, { depth: 10 })).not.toContain("sk-ant-secret-value");
    expect(`${String(settings.apiKey)}`).toBe("****abcd");
  });

  it("a missing key is a ConfigError with exit status 2 naming what to set", async () => {
    const anthropic = await resolveWith();
    expect(() => requireApiKey(anthropic)).toThrow(ConfigError);
    try {
      requireApiKey(anthropic);
    } catch (error) {
      expect((error as ConfigError).exitCode).toBe(2);
      expect((error as Error).message).toContain("set ANTHROPIC_API_KEY or pass --api-key");
    }
    const openai = await resolveWith({ flags: { provider: "openai" } });
    expect(() => requireApiKey(openai)).toThrow(/set OPENAI_API_KEY or pass --api-key/);
    const remote = await resolveWith({ flags: { provider: "openai", baseUrl: "https://api.example.com/v1" } });
    expect(() => requireApiKey(remote)).toThrow(/at https:\/\/api\.example\.com\/v1/);
    expect(requireApiKey(await resolveWith({ flags: { provider: "mock" } }))).toBeUndefined();
    expect(requireApiKey(await resolveWith({ flags: { provider: "openai", baseUrl: "http://[::1]:8080/v1" } }))).toBeUndefined();
  });

  it("ignores a key in the project config, with a warning, and does not use it", async () => {
    await folders.writeProjectConfig({ apiKey: "project-key-should-not-be-used", profiles: { p: { apiKey: "project-profile-key-xxxx" } } });
    const settings = await resolveWith();
    expect(settings.apiKey).toBeUndefined();
    expect(settings.warnings.join("\n")).toMatch(/apiKey, profiles\.p\.apiKey ignored: API keys belong in the environment or the user config/);
    expect(settings.warnings.join("\n")).not.toContain("project-key-should-not-be-used");
  });
});

describe("model overrides, hooks and timeouts from config", () => {
  it("merges model overrides by id across files, each with its source", async () => {
    await folders.writeUserConfig({
      models: { "gpt-5": { contextWindow: 100_000 }, qwen3: { inputPrice: 0 } },
      timeouts: { firstChunkMs: 5000 },
      retry: { delaysMs: [1, 2] },
    });
    await folders.writeProjectConfig({ models: { "gpt-5": { contextWindow: 50_000 } } });
    const settings = await resolveWith();
    expect(settings.models).toEqual({ "gpt-5": { contextWindow: 50_000 }, qwen3: { inputPrice: 0 } });
    expect(settings.sources["models.gpt-5"]).toBe("project");
    expect(settings.sources["models.qwen3"]).toBe("user");
    expect(settings.stallTimeouts).toEqual({ firstChunkMs: 5000, betweenChunksMs: 30_000 });
    expect(settings.retry.delaysMs).toEqual([1, 2]);
  });
});
