import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSettings, type ResolvedSettings } from "../config/index.js";
import { readFleetSettings, type FleetSettings } from "./fleet-settings.js";
import { JobRejectedError, matchesUrlPattern, narrowBudgets, narrowPermissions, narrowSandbox, narrowSettings, providerFlagsFor } from "./narrow-settings.js";
import { jobDataSchema, jobLineSchema } from "./job-spec.js";

let root: string;
let worker: ResolvedSettings;
let fleet: FleetSettings;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-narrow-"));
  worker = await resolveSettings({
    flags: { provider: "anthropic", baseUrl: "https://api.anthropic.com", yes: true, maxMistakes: 4 },
    env: {},
    cwd: root,
    userConfigDir: join(root, "config"),
  });
  fleet = { ...(await readFleetSettings(join(root, "config"))), allow: { providers: ["openai"], profiles: ["local"], baseUrls: ["http://127.0.0.1:*"] }, budgets: { maxTurns: 50, maxCostUsd: 2 } };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("a job narrows a worker's settings, never widens them", () => {
  it("a job may name a provider, profile or base URL only among those the worker allows", () => {
    const base = { worker, fleet, workerFlags: { provider: "anthropic", baseUrl: "https://api.anthropic.com" } };
    expect(() => providerFlagsFor({ ...base, job: { baseUrl: "https://attacker.example/v1" } })).toThrow(JobRejectedError);
    expect(() => providerFlagsFor({ ...base, job: { baseUrl: "https://attacker.example/v1" } })).toThrow(/does not allow/);
    expect(() => providerFlagsFor({ ...base, job: { profile: "someone-elses" } })).toThrow(/profile "someone-elses"/);
    expect(providerFlagsFor({ ...base, job: { baseUrl: "http://127.0.0.1:8787" } }).baseUrl).toBe("http://127.0.0.1:8787");
    expect(providerFlagsFor({ ...base, job: { baseUrl: "https://api.anthropic.com/" } }).baseUrl).toBe("https://api.anthropic.com/");
    // openai is allowed: the worker's base URL for anthropic does not follow the job to openai.
    const openai = providerFlagsFor({ ...base, job: { provider: "openai" } });
    expect(openai).toMatchObject({ provider: "openai" });
    expect(openai.baseUrl).toBeUndefined();
    // The scripted model sends nothing anywhere.
    expect(providerFlagsFor({ ...base, job: { provider: "mock" } }).provider).toBe("mock");
  });

  it("a key never comes from a job: the schema refuses apiKey and the worker's flags lose --api-key", () => {
    expect(jobLineSchema.safeParse({ repo: "r", task: "t", apiKey: "sk-secret" }).success).toBe(false);
    expect(jobDataSchema.safeParse({ repo: "r", ref: "HEAD", task: "t", options: { apiKey: "sk-secret" } }).success).toBe(false);
    const flags = providerFlagsFor({ worker, fleet, job: {}, workerFlags: { apiKey: "worker-key-from-a-flag" } });
    expect(flags.apiKey).toBeUndefined();
  });

  it("approvals, mistakes and outside writes only go down", () => {
    const narrowed = narrowSettings({ resolved: worker, worker, job: { yes: false, maxMistakes: 2, autoApprove: { readInside: false } }, fleet });
    expect(narrowed.settings.yes).toBe(false);
    expect(narrowed.settings.maxMistakes).toBe(2);
    expect(narrowed.settings.autoApprove.readInside).toBe(false);
    expect(narrowSettings({ resolved: worker, worker, job: { maxMistakes: 9 }, fleet }).settings.maxMistakes).toBe(4);
    const strict = { ...worker, autoApprove: { ...worker.autoApprove, commandsAll: false } };
    expect(() => narrowSettings({ resolved: strict, worker: strict, job: { autoApprove: { commandsAll: true } }, fleet })).toThrow(/autoApprove.commandsAll/);
    expect(() => narrowSettings({ resolved: worker, worker, job: { autoApprove: { everything: true } }, fleet })).toThrow(/not a setting/);
  });

  it("budgets, permission rules and the sandbox: a job can only tighten them", () => {
    expect(narrowBudgets({ maxTurns: 50 }, { maxTurns: 10, maxTokens: 1000 })).toEqual({ maxTurns: 10, maxTokens: 1000 });
    expect(narrowBudgets({ maxTurns: 50, maxCostUsd: 2 }, {})).toEqual({ maxTurns: 50, maxCostUsd: 2 });
    expect(() => narrowBudgets({ maxCostUsd: 2 }, { maxCostUsd: 5 })).toThrow(/maxCostUsd = 5 is above this worker's 2/);
    expect(narrowPermissions({ allow: ["Bash(npm test)"], deny: ["Bash(rm *)"] }, { allow: ["Bash(npm test)"], deny: ["Read(.env)"] })).toEqual({
      allow: ["Bash(npm test)"],
      ask: [],
      deny: ["Bash(rm *)", "Read(.env)"],
    });
    expect(() => narrowPermissions({ allow: [] }, { allow: ["Bash(*)"] })).toThrow(/"Bash\(\*\)"/);
    expect(narrowSandbox(true, undefined)).toBe("workspace-write");
    expect(narrowSandbox(undefined, true)).toBe("workspace-write");
    expect(narrowSandbox("workspace-write", "read-only")).toBe("read-only");
    expect(() => narrowSandbox(true, false)).toThrow(/looser than this worker's "workspace-write"/);
    expect(() => narrowSandbox("read-only", "workspace-write")).toThrow(/looser/);
  });

  it("base URL patterns: * matches any run of characters, nothing else is special", () => {
    expect(matchesUrlPattern("http://127.0.0.1:4000", "http://127.0.0.1:*")).toBe(true);
    expect(matchesUrlPattern("http://127.0.0.1.evil.example:4000", "http://127.0.0.1:*")).toBe(false);
    expect(matchesUrlPattern("https://proxy.corp/v1", "https://proxy.corp/v1")).toBe(true);
    expect(matchesUrlPattern("https://proxyXcorp/v1", "https://proxy.corp/v1")).toBe(false);
    expect(matchesUrlPattern("http://127.0.0.1:4000@attacker.example/", "http://127.0.0.1:*")).toBe(false);
    expect(matchesUrlPattern("http://user:pass@127.0.0.1:4000", "http://127.0.0.1:*")).toBe(false);
  });
});

describe("a job's narrowed budgets, rules and sandbox reach the permission layer", () => {
  it("budgets become the lower of the worker's and the job's; the sandbox only gets stricter", async () => {
    const { applySecurityNarrowing } = await import("./apply-security.js");
    const withLayer = { ...worker, budget: { maxRequests: 40, maxCost: 1 }, sandbox: "workspace-write", permissions: [] } as unknown as ResolvedSettings;
    const applied = (await applySecurityNarrowing({ settings: withLayer, budgets: { maxTurns: 10, maxCostUsd: 3, maxDurationMs: 60_000 }, jobPermissions: undefined, sandbox: "read-only" })) as unknown as {
      budget: Record<string, number>;
      sandbox: string;
    };
    expect(applied.budget).toEqual({ maxRequests: 10, maxCost: 1, maxTime: 60 });
    expect(applied.sandbox).toBe("read-only");
  });

  it("a worker without a permission layer refuses a job with rules or a sandbox instead of running it without them", async () => {
    const { applySecurityNarrowing } = await import("./apply-security.js");
    // The settings as they are without that layer (whether or not this build has it).
    const fields: Record<string, unknown> = { ...worker };
    delete fields["permissions"];
    delete fields["sandbox"];
    delete fields["budget"];
    const bare = fields as unknown as ResolvedSettings;
    await expect(applySecurityNarrowing({ settings: bare, budgets: {}, jobPermissions: undefined, sandbox: "read-only" })).rejects.toThrow(/cannot provide/);
    await expect(applySecurityNarrowing({ settings: bare, budgets: {}, jobPermissions: { deny: ["Bash(rm *)"] }, sandbox: undefined })).rejects.toThrow(/cannot enforce/);
    expect(narrowPermissions({ allow: ["Bash(npm test)"], deny: ["Read(.env)"] }, undefined)).toEqual({ allow: [], ask: [], deny: ["Read(.env)"] });
  });
});
