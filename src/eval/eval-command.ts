/** `cairn eval suite.json` and `cairn eval compare A.json B.json`. */
import { environmentWithSecrets } from "../security/secret-environment.js";
import { availableParallelism } from "node:os";
import { readFile, writeFile } from "node:fs/promises";
import type { CliFlags } from "../config/index.js";
import { ConfigError, resolveSettings } from "../config/index.js";
import { compareReports, formatComparison, formatReport, type EvalReport } from "./eval-report.js";
import { loadSuite, SuiteError } from "./suite.js";
import { FleetConfigError } from "../fleet/redis-connection.js";

export interface EvalFlags extends CliFlags {
  redis?: string;
  queue?: string;
  local?: boolean;
  concurrency?: string;
  out?: string;
  json?: boolean;
  workDir?: string;
}

export async function runEvalCommand(suitePath: string, flags: EvalFlags): Promise<number> {
  const { redis, queue, local, concurrency: concurrencyFlag, out, json, workDir, ...taskFlags } = flags;
  const concurrency = concurrencyFlag === undefined ? Math.min(4, availableParallelism()) : Number(concurrencyFlag);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write(`cairn: --concurrency ${concurrencyFlag ?? ""}: give a whole number of at least 1\n`);
    return 2;
  }
  try {
    const suite = await loadSuite(suitePath);
    const progress = (line: string): void => {
      if (!json) process.stderr.write(`${line}\n`);
    };
    let report: EvalReport;
    const useFleet = local !== true && redis !== undefined;
    if (useFleet) {
      const { openFleet } = await import("../fleet/fleet-context.js");
      const { runSuiteOnFleet } = await import("./run-suite.js");
      const context = await openFleet({ redisFlag: redis, queueFlag: queue, env: environmentWithSecrets() });
      try {
        report = await runSuiteOnFleet({ suite, context, onCase: (result) => progress(`${result.pass ? "pass" : "FAIL"}  ${result.name}`) });
      } finally {
        await context.close();
      }
    } else {
      const settings = await resolveSettings({ flags: { ...taskFlags, json: true }, env: environmentWithSecrets(), cwd: process.cwd() });
      const { readFleetSettings } = await import("../fleet/fleet-settings.js");
      const { runSuiteLocal } = await import("./run-suite.js");
      const fleet = await readFleetSettings(settings.userConfigDir);
      report = await runSuiteLocal({
        suite,
        concurrency,
        worker: { settings, flags: taskFlags, fleet, env: environmentWithSecrets(), cwd: process.cwd(), name: "local", workRoot: workDir },
        onCase: (result) => progress(`${result.pass ? "pass" : "FAIL"}  ${result.name}`),
      });
    }
    if (out !== undefined) await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(json ? `${JSON.stringify(report)}\n` : formatReport(report));
    return report.totals.failed === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof SuiteError || error instanceof ConfigError || error instanceof FleetConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

async function readReport(path: string): Promise<EvalReport> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new SuiteError(`cannot read the eval results ${path}: ${(error as Error).message}`);
  }
  const report = value as Partial<EvalReport>;
  if (!Array.isArray(report.cases) || typeof report.totals !== "object") throw new SuiteError(`${path} is not the JSON of cairn eval (--out FILE or --json)`);
  return report as EvalReport;
}

export async function runEvalCompare(before: string, after: string, flags: { json?: boolean }): Promise<number> {
  try {
    const comparison = compareReports(await readReport(before), await readReport(after));
    process.stdout.write(flags.json ? `${JSON.stringify(comparison)}\n` : formatComparison(comparison));
    return 0;
  } catch (error) {
    if (error instanceof SuiteError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
