/**
 * What a job carries: the repository, its base revision, the task and the run
 * options of `cairn run`. Never a key: the schema is strict, so a job with an
 * `apiKey` (or any unknown field) is refused when it is added and again when a
 * worker reads it (anyone may have written to Redis).
 */
import { z } from "zod";
import { scenarioSchema } from "../llm/scripted/scenario.js";
import { budgetsSchema, permissionRulesSchema, sandboxSchema } from "./fleet-settings.js";

export const jobOptionsSchema = z.strictObject({
  provider: z.enum(["anthropic", "openai", "openai-responses", "gemini", "mock"]).optional(),
  baseUrl: z.url().optional(),
  model: z.string().min(1).optional(),
  profile: z.string().min(1).optional(),
  toolProtocol: z.enum(["xml", "native"]).optional(),
  maxMistakes: z.number().int().positive().optional(),
  parallelTools: z.boolean().optional(),
  plan: z.boolean().optional(),
  /** Only `false` has an effect: a job can take approvals away from a worker, never give them. */
  yes: z.boolean().optional(),
  autoApprove: z.record(z.string(), z.boolean()).optional(),
  budgets: budgetsSchema.optional(),
  permissions: permissionRulesSchema.optional(),
  sandbox: sandboxSchema.optional(),
  /** For `provider: "mock"`: the scripted model travels with the job (it holds no secret). */
  scenario: scenarioSchema.optional(),
  /** Push the result to this branch of the repository (`cairn/` is prefixed when missing). */
  pushBranch: z
    .string()
    .regex(/^[A-Za-z0-9._/-]+$/)
    .optional(),
});
export type JobOptions = z.infer<typeof jobOptionsSchema>;

export const jobDataSchema = z.strictObject({
  /** A git URL or an absolute path on the workers' machines. */
  repo: z.string().min(1),
  /** What the user asked for (`--ref`, default HEAD). */
  ref: z.string().min(1),
  /** The commit `ref` named when the job was added; every attempt starts from it. */
  baseRevision: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
  task: z.string().min(1),
  options: jobOptionsSchema,
  /** Free label for eval suites and humans. */
  name: z.string().optional(),
  /** W3C trace context of whoever added the job (`TRACEPARENT` of `cairn queue add`): the task's trace continues it (#36). */
  traceparent: z.string().max(64).optional(),
});
export type JobData = z.infer<typeof jobDataSchema>;

/** A line of `--file tasks.jsonl`: `{"repo", "ref"?, "task", ...run options}`. */
export const jobLineSchema = jobOptionsSchema.extend({
  repo: z.string().min(1),
  ref: z.string().min(1).optional(),
  task: z.string().min(1),
  name: z.string().optional(),
});

export type JobStatus = "completed" | "failed" | "cancelled" | "rejected";

/** What a worker stores when a job ends (the job's return value). */
export interface JobResult {
  status: JobStatus;
  taskId: string | undefined;
  /** The task's final answer (its attempt_completion result), if any. */
  report: string | undefined;
  error: string | undefined;
  /** `git diff --binary` against the base revision. */
  patch: string;
  baseRevision: string;
  branch: string | undefined;
  turns: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  durationMs: number;
  worker: string;
  /** Attempts that started (a takeover after a dead worker counts). */
  attempts: number;
}

export function describeSchemaError(error: z.ZodError, source: string): string {
  const problems = error.issues.map((issue) => `  - ${issue.path.map(String).join(".") || "(top level)"}: ${issue.message}`);
  return `${source}:\n${problems.join("\n")}`;
}
