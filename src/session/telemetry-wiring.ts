/**
 * OpenTelemetry for a session (#36, docs/telemetry.md): nothing at all unless
 * an OTLP endpoint is configured; then the SDK is loaded (only then) and the
 * task's messages become its trace (src/telemetry/task-telemetry.ts).
 */
import type { ResolvedSettings } from "../config/index.js";
import type { TaskTelemetry, TaskTelemetryStart } from "../telemetry/task-telemetry.js";
import { telemetryConfig } from "../telemetry/telemetry-config.js";

export type { TaskTelemetry } from "../telemetry/task-telemetry.js";

export async function startTelemetry(settings: ResolvedSettings, start: TaskTelemetryStart, env: NodeJS.ProcessEnv = process.env): Promise<TaskTelemetry | undefined> {
  const config = telemetryConfig(env, settings.telemetry);
  if (config === undefined) return undefined;
  const { startTaskTelemetry } = await import("../telemetry/task-telemetry.js");
  // `TRACEPARENT` (as CI systems and otel-cli set it): a `cairn run` in a traced pipeline continues its trace.
  const traceparent = start.traceparent ?? env["TRACEPARENT"];
  return startTaskTelemetry(config, { ...start, ...(traceparent ? { traceparent } : {}) });
}

/** The telemetry of a session's task: its id, its typed task (none for a resumed one), its model and provider. */
export function startSessionTelemetry(
  settings: ResolvedSettings,
  task: { taskId: string; start: { kind: "new"; task: string } | { kind: "resume" }; provider: { name: string; model: { id: string } }; traceparent?: string },
): Promise<TaskTelemetry | undefined> {
  const { taskId, start, provider } = task;
  return startTelemetry(settings, { taskId, task: start.kind === "new" ? start.task : "", model: provider.model.id, provider: provider.name, ...(task.traceparent ? { traceparent: task.traceparent } : {}) });
}
