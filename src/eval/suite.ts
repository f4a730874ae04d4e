/**
 * An evaluation suite: cases of (repository, revision, task, scripted
 * scenario or real model, check command). Paths in the file are relative to
 * the file, so a suite travels with its repositories and scenarios.
 */
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { loadScenario, scenarioSchema, type Scenario } from "../llm/scripted/scenario.js";

const modelSchema = z.strictObject({
  provider: z.enum(["anthropic", "openai", "openai-responses", "gemini", "mock"]).optional(),
  model: z.string().min(1).optional(),
  profile: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  toolProtocol: z.enum(["xml", "native"]).optional(),
});

const caseSchema = z.strictObject({
  name: z.string().min(1),
  /** A git URL, a repository folder, or a plain folder (made a repository with one commit). */
  repo: z.string().min(1),
  ref: z.string().min(1).optional(),
  task: z.string().min(1),
  /** A scenario file (relative to the suite) or the scenario itself: the model is scripted. */
  scenario: z.union([z.string().min(1), scenarioSchema]).optional(),
  /** Otherwise a real model (the suite's or the command line's when absent). */
  model: modelSchema.optional(),
  /** Run in the workspace after the task; exit status 0 passes. */
  check: z.string().min(1).optional(),
  timeoutSeconds: z.number().positive().optional(),
  maxTurns: z.number().int().positive().optional(),
});

export const suiteSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().optional(),
  model: modelSchema.optional(),
  cases: z.array(caseSchema).min(1),
});

export type SuiteCase = z.infer<typeof caseSchema>;
export type ModelChoice = z.infer<typeof modelSchema>;

export interface LoadedCase {
  name: string;
  repo: string;
  ref: string;
  task: string;
  scenario: Scenario | undefined;
  model: ModelChoice | undefined;
  check: string | undefined;
  timeoutSeconds: number;
  maxTurns: number | undefined;
}

export interface LoadedSuite {
  name: string;
  path: string;
  cases: LoadedCase[];
}

export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiteError";
  }
}

function isUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^[^/\\]+@[^:]+:/.test(value);
}

export async function loadSuite(path: string): Promise<LoadedSuite> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new SuiteError(`cannot read the suite ${path}: ${(error as Error).message}`);
  }
  const parsed = suiteSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.map(String).join(".") || "(top level)"}: ${issue.message}`);
    throw new SuiteError(`${path} is not a valid suite:\n${problems.join("\n")}\nSee docs/fleet.md.`);
  }
  const base = dirname(resolve(path));
  const names = new Set<string>();
  const cases: LoadedCase[] = [];
  for (const entry of parsed.data.cases) {
    if (names.has(entry.name)) throw new SuiteError(`${path}: two cases are named "${entry.name}"`);
    names.add(entry.name);
    let scenario: Scenario | undefined;
    if (typeof entry.scenario === "string") scenario = await loadScenario(isAbsolute(entry.scenario) ? entry.scenario : resolve(base, entry.scenario));
    else scenario = entry.scenario;
    cases.push({
      name: entry.name,
      repo: isUrl(entry.repo) || isAbsolute(entry.repo) ? entry.repo : resolve(base, entry.repo),
      ref: entry.ref ?? "HEAD",
      task: entry.task,
      scenario,
      model: entry.model ?? parsed.data.model,
      check: entry.check,
      timeoutSeconds: entry.timeoutSeconds ?? 600,
      maxTurns: entry.maxTurns,
    });
  }
  return { name: parsed.data.name ?? base.split("/").pop() ?? "suite", path: resolve(path), cases };
}
