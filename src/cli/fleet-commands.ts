import type { Command } from "commander";
import { addTaskOptions } from "./run-command.js";

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function connectionOptions(command: Command): Command {
  return command.option("--redis <url>", "Redis URL (default $CAIRN_REDIS_URL, then redisUrl in fleet.json)").option("--queue <name>", "queue name (default $CAIRN_QUEUE, then queue in fleet.json, then cairn)");
}

/**
 * `cairn queue`, `cairn worker`, `cairn replay` and `cairn eval`. Everything
 * they need (BullMQ, ioredis) is imported inside the actions, so the rest of
 * cairn never loads it.
 */
export function registerFleetCommands(program: Command): void {
  const queue = program.command("queue").description("tasks for a fleet of workers (BullMQ on Redis)");
  connectionOptions(
    queue
      .command("add")
      .description("add a job (prints its id), or many with --file tasks.jsonl")
      .argument("[task...]", "what to do")
      .option("--repo <urlOrPath>", "the repository (git URL or path)")
      .option("--ref <rev>", "the revision to start from (default HEAD)")
      .option("--file <tasks.jsonl>", 'one {"repo", "ref", "task", ...options} object per line')
      .option("--name <label>", "a label shown in results")
      .option("--provider <name>", "anthropic | openai | openai-responses | gemini | mock (among those the workers allow)")
      .option("--base-url <url>", "API base URL (among those the workers allow)")
      .option("--model <id>", "model id")
      .option("--profile <name>", "a provider profile of the workers' settings")
      .option("--tool-protocol <protocol>", "xml | native")
      .option("--max-mistakes <n>", "consecutive mistakes before stopping (can only lower the worker's)")
      .option("--scenario <file>", "for --provider mock: the scripted model, carried in the job")
      .option("--max-turns <n>", "budget: model requests")
      .option("--max-tokens <n>", "budget: tokens")
      .option("--max-cost <usd>", "budget: cost in USD")
      .option("--timeout <seconds>", "budget: wall time of one attempt")
      .option("--sandbox [mode]", "ask for the sandbox: workspace-write (the default) or read-only")
      .option("--allow <rule>", "permission rule to allow (only among the worker's)", collect)
      .option("--ask <rule>", "permission rule to ask about", collect)
      .option("--deny <rule>", "permission rule to deny", collect)
      .option("--no-approve", "take --yes away from the worker for this job")
      .option("--push-branch <name>", "push the result to this branch of the repository")
      .option("--api-key <key>", "refused: keys never go in a job"),
  ).action(async (words: string[], flags: Record<string, unknown>) => {
    const { queueAdd } = await import("../fleet/queue-commands.js");
    const { approve, ...rest } = flags;
    process.exitCode = await queueAdd(words, { ...rest, ...(approve === false ? { noApprove: true } : {}) });
  });
  connectionOptions(queue.command("status").description("waiting, running and finished jobs").option("--json", "one JSON object")).action(async (flags: { redis?: string; queue?: string; json?: boolean }) => {
    const { queueStatusCommand } = await import("../fleet/queue-commands.js");
    process.exitCode = await queueStatusCommand(flags);
  });
  connectionOptions(queue.command("watch").description("follow a job's messages live, from the start").argument("<job>", "job id").option("--json", "one JSON message per line")).action(
    async (jobId: string, flags: { redis?: string; queue?: string; json?: boolean }) => {
      const { queueWatch } = await import("../fleet/queue-commands.js");
      process.exitCode = await queueWatch(jobId, flags);
    },
  );
  connectionOptions(queue.command("cancel").description("stop a job wherever it runs (a staged abort)").argument("<job>", "job id")).action(async (jobId: string, flags: { redis?: string; queue?: string }) => {
    const { queueCancel } = await import("../fleet/queue-commands.js");
    process.exitCode = await queueCancel(jobId, flags);
  });
  connectionOptions(queue.command("results").description("finished jobs: status, report, patch, usage").argument("[job]", "one job").option("--json", "one JSON object per job")).action(
    async (jobId: string | undefined, flags: { redis?: string; queue?: string; json?: boolean }) => {
      const { queueResults } = await import("../fleet/queue-commands.js");
      process.exitCode = await queueResults(jobId, flags);
    },
  );

  connectionOptions(
    addTaskOptions(program.command("worker").description("take jobs from the queue and run them"))
      .option("--concurrency <n>", "jobs at once (default 1)")
      .option("--work-dir <dir>", "where job workspaces are made (default the temporary folder)")
      .option("--name <name>", "this worker's name in results (default host:pid)"),
  ).action(async (flags: Record<string, string | undefined>) => {
    const { runWorkerCommand } = await import("../fleet/worker.js");
    process.exitCode = await runWorkerCommand(flags);
  });

  program
    .command("replay")
    .description("turn a recorded task's model answers into a scenario for the scripted LLM server")
    .argument("<taskId>", "the task (see cairn history)")
    .option("--out <file>", "where to write the scenario (default: standard output)")
    .option("--data-dir <dir>", "where tasks are kept (default $CAIRN_HOME or ~/.cairn)")
    .action(async (taskId: string, flags: { out?: string; dataDir?: string }) => {
      const { runReplayCommand } = await import("../eval/replay-command.js");
      process.exitCode = await runReplayCommand(taskId, flags);
    });

  connectionOptions(
    addTaskOptions(
      program
        .command("eval")
        .description("run an evaluation suite (cairn eval suite.json), or compare two runs (cairn eval compare A.json B.json)")
        .argument("<suite>", "suite.json, or the word compare")
        .argument("[results...]", "with compare: the two result files"),
    )
      .option("--local", "run the cases here, side by side (the default)")
      .option("--concurrency <n>", "cases at once when local (default: up to 4)")
      .option("--out <file>", "also write the results as JSON to this file")
      .option("--work-dir <dir>", "where case workspaces are made"),
  ).action(async (suite: string, files: string[], flags: Record<string, string | boolean | undefined>) => {
    if (suite === "compare") {
      const [before, after] = files;
      if (before === undefined || after === undefined || files.length !== 2) {
        process.stderr.write("cairn: usage: cairn eval compare A.json B.json\n");
        process.exitCode = 2;
        return;
      }
      const { runEvalCompare } = await import("../eval/eval-command.js");
      process.exitCode = await runEvalCompare(before, after, { json: flags["json"] === true });
      return;
    }
    const { runEvalCommand } = await import("../eval/eval-command.js");
    process.exitCode = await runEvalCommand(suite, flags);
  });
}
