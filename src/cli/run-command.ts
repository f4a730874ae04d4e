import { environmentWithSecrets } from "../security/secret-environment.js";
import type { Command } from "commander";
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { RunSummary } from "./run-summary.js";
import type { ProcessSummary } from "../session/run-summary.js";
import type { ProcessTable } from "../tools/process/process-table.js";
import { addSecurityOptions, blockedBaseUrlMessage } from "../security/cli-options.js";

/** The options shared by `cairn run` and `cairn resume`. */
export function addTaskOptions(command: Command): Command {
  return addSecurityOptions(
    command
      .option("--cwd <dir>", "workspace folder (default: the current folder)")
      .option("--provider <name>", "anthropic | openai | openai-responses | gemini | azure | bedrock | vertex | mock")
      .option("--base-url <url>", "API base URL (any OpenAI-compatible server with --provider openai)")
      .option("--model <id>", "model id")
      .option("--api-key <key>", "API key (default from CAIRN_API_KEY, then ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY)")
      .option("--profile <name>", "a named provider profile from the config")
      .option("--tool-protocol <protocol>", "xml | native")
      .option("--scenario <file>", "scenario file for --provider mock (the scripted model)")
      .option("-y, --yes", "approve every tool; never ask")
      .option("--json", "print one JSON message per line")
      .option("--max-mistakes <n>", "consecutive mistakes before stopping or asking (default 3)")
      .option("--parallel-tools", "run every tool of an answer, not only the first")
      .option("--plan", "start in plan mode")
      .option("--permission-mode <mode>", "default | acceptEdits | plan | auto | bypassPermissions (auto: a model judges what would be asked)")
      .option("--judge-model <id>", "auto mode's judge model (default: a small model of the provider in use)")
      .option("--data-dir <dir>", "where tasks and checkpoints are kept (default $CAIRN_HOME or ~/.cairn)")
      .option("--ask-timeout <duration>", "longest wait for an answer on stdin (e.g. 30s)")
      .option("--on-ask <policy>", "deny | fail: what happens to an ask nobody answers (default fail)")
      .option("--allow-outside-writes", "with --yes, allow writing outside the workspace")
      .option("--trust", "trust this folder's .cairn config (auto-approval, hooks, MCP servers)")
      .option("--image <file>", "an image to send with the task (repeatable; for models that accept images)", (value: string, previous: string[] = []) => [...previous, value])
      .option("--no-checkpoints", "keep no checkpoints of the workspace (setting: checkpoints: false)"),
  );
}

export type TaskCommandOptions = CliFlags & { scenario?: string; image?: string[] };

export { exitStatusFor } from "../session/run-summary.js";
import { exitStatusFor, runSummary } from "../session/run-summary.js";
import { loadInteractive } from "./load-interactive.js";

/**
 * Runs one task headless to its end: resolves settings, builds the session,
 * prints messages, and maps the outcome to an exit status (0 completed,
 * 1 failed, 2 usage or configuration error, 130 interrupted).
 */
export async function runHeadless(options: { flags: TaskCommandOptions; start: { kind: "new"; task: string } | { kind: "resume"; taskId: string; message?: string } }): Promise<number> {
  const { resolveSettings, ConfigError } = await import("../config/index.js");
  const { HeadlessHost } = await import("../ui/headless/index.js");
  const { createSession } = await import("../session/session.js");

  let settings: ResolvedSettings;
  try {
    settings = await resolveSettings({ flags: options.flags, env: environmentWithSecrets(), cwd: process.cwd(), trust: options.flags.trust === true });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  for (const warning of settings.warnings) process.stderr.write(`cairn: warning: ${warning}\n`);
  if (settings.trust.blockedBaseUrl !== undefined) {
    process.stderr.write(`cairn: ${blockedBaseUrlMessage(settings.trust.blockedBaseUrl, settings.projectConfigPath)}\n`);
    return 2;
  }

  let scenario: Scenario | undefined;
  if (settings.provider === "mock") {
    // Only the scripted model needs the scenario reader (and zod, its schema): issue 18.
    const { loadScenario, ScenarioError } = await import("../llm/scripted/scenario.js");
    if (!options.flags.scenario) {
      process.stderr.write("cairn: --provider mock needs --scenario FILE (a scripted model; see docs/scripted-llm.md)\n");
      return 2;
    }
    try {
      scenario = await loadScenario(options.flags.scenario);
    } catch (error) {
      if (error instanceof ScenarioError) {
        process.stderr.write(`cairn: ${error.message}\n`);
        return 2;
      }
      throw error;
    }
  }

  const { dataFolderProblem } = await import("./start-checks.js");
  const dataFolder = await dataFolderProblem(settings.dataDir);
  if (dataFolder !== undefined) {
    process.stderr.write(`cairn: ${dataFolder}\n`);
    return 2;
  }

  if (options.start.kind === "resume") {
    const { resumeProblem } = await import("./start-checks.js");
    const problem = await resumeProblem(settings.dataDir, options.start.taskId);
    if (problem !== undefined) {
      process.stderr.write(`cairn: ${problem}\n`);
      return 2;
    }
  }

  const { readImageFlags } = await import("./mentions.js");
  const imageFlags = await readImageFlags(options.flags.image ?? []);
  if ("error" in imageFlags) {
    process.stderr.write(`cairn: ${imageFlags.error}\n`);
    return 2;
  }

  const pendingHost: { current?: InstanceType<typeof HeadlessHost> } = {};
  const { RefusalCounter } = await import("../session/refusal-counter.js");
  const refusals = new RefusalCounter();
  let session;
  try {
    session = await createSession({
      settings,
      ...(scenario ? { scenario } : {}),
      start: options.start,
      ...(imageFlags.images.length > 0 ? { images: imageFlags.images } : {}),
      onNotice: (text) => process.stderr.write(`cairn: ${text}\n`),
      headless: true,
      host: {
        onMessage: (message) => {
          refusals.observe(message);
          pendingHost.current?.onMessage(message);
        },
        answerAsk: (message, signal) => {
          if (!pendingHost.current) throw new Error("no host");
          return pendingHost.current.answerAsk(message, signal);
        },
      },
    });
  } catch (error) {
    if (error instanceof ConfigError || (error instanceof Error && error.name === "DataFolderError")) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  // Said once, after what stops the start (a missing key, a bad flag) and before the task's first line.
  if (settings.sandboxNotice !== undefined) process.stderr.write(`cairn: ${settings.sandboxNotice}\n`);
  const host = new HeadlessHost({
    json: settings.json,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    taskId: session.taskId,
    askTimeoutMs: settings.askTimeoutMs,
    onAsk: settings.onAsk,
    yes: settings.yes,
  });
  pendingHost.current = host;
  // Text mode: stdout carries only the answer; the task id and the summary are status lines, on stderr.
  if (!settings.json) process.stderr.write(`${options.start.kind === "new" ? "task" : "resuming task"} ${session.taskId}\n`);

  const startedAt = Date.now();
  let summary: RunSummary | undefined;
  let interrupted = false;
  const onSignal = (): void => {
    if (interrupted) process.exit(130);
    interrupted = true;
    void session.task.abortTask();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const { watchClosedStdout } = await import("./closed-stdout.js");
  // #11 item 2: a reader that went away (`| head`) stops the task as SIGTERM does.
  const stopWatchingStdout = watchClosedStdout(process.stdout, () => {
    interrupted = true;
    void session.task.abortTask();
  });
  try {
    const result = await session.run();
    // Text mode has just printed the error; JSON readers get it once more in plain words.
    if (result.status === "failed" && result.error && settings.json) process.stderr.write(`cairn: task failed: ${result.error}\n`);
    if (result.status === "aborted") process.stderr.write(`cairn: task interrupted; resume it with: cairn resume ${session.taskId}\n`);
    summary = runSummary({ session, result, startedAt, refused: 0 });
    return exitStatusFor(result);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    stopWatchingStdout();
    try {
      // Background processes end with the run (#31), named on stderr and listed in the result.
      const processes = await endProcesses(session.processes, settings.json);
      if (summary !== undefined && processes.length > 0) summary = { ...summary, processes };
      // What the session still says while it closes (a late first checkpoint) comes before the last line.
      await session.close();
    } finally {
      host.close();
      if (summary !== undefined) {
        // #11: the last line says how it went (text, on stderr), or is one result object (--json).
        const { resultLine, summaryLine } = await import("./run-summary.js");
        const final = { ...summary, refused: refusals.count };
        if (settings.json) process.stdout.write(`${resultLine(final)}\n`);
        else process.stderr.write(`${summaryLine(final)}\n`);
      }
    }
  }
}

/** Ends what still runs in the background, and sums up every process of the run. */
async function endProcesses(table: ProcessTable, json: boolean): Promise<ProcessSummary[]> {
  const ended = new Set((await table.stopAll()).map((entry) => entry.id));
  const { describeDuration } = await import("../tools/process/process-text.js");
  return table.list().map((entry) => {
    const durationMs = (entry.endedAt ?? Date.now()) - entry.startedAt;
    const endedAtExit = ended.has(entry.id);
    if (endedAtExit && !json) process.stderr.write(`cairn: ended background process ${entry.id} (${entry.command}) after ${describeDuration(durationMs)}\n`);
    return { id: entry.id, command: entry.command, state: entry.state === "exited" ? "exited" : "stopped", exitCode: entry.exitCode, durationMs, endedAtExit };
  });
}

/**
 * `cairn [task]` and `cairn resume ID [message]`: the terminal UI on a
 * terminal, otherwise the same as `cairn run` / headless resume.
 */
export async function runDefault(words: string[], flags: TaskCommandOptions, resumeTaskId?: string): Promise<number> {
  const task = words.join(" ").trim();
  const interactive = process.stdout.isTTY === true && process.stdin.isTTY === true && flags.json !== true;
  if (!interactive) {
    if (resumeTaskId !== undefined) return runHeadless({ flags, start: { kind: "resume", taskId: resumeTaskId, ...(task ? { message: task } : {}) } });
    if (task.length === 0) {
      process.stderr.write("cairn: no task given. Usage: cairn run [options] <task...> (or run cairn in a terminal)\n");
      return 2;
    }
    return runHeadless({ flags, start: { kind: "new", task } });
  }
  const { resolveSettings, ConfigError } = await import("../config/index.js");
  const { runInteractive } = await loadInteractive();
  const resolve = (trust: boolean): Promise<ResolvedSettings> => resolveSettings({ flags, env: environmentWithSecrets(), cwd: process.cwd(), trust });
  try {
    const settings = await resolve(flags.trust === true);
    const scenario = settings.provider === "mock" && flags.scenario ? await (await import("../llm/scripted/scenario.js")).loadScenario(flags.scenario) : undefined;
    const { dataFolderProblem, missingApiKeyMessage, resumeProblem } = await import("./start-checks.js");
    const problem = (await dataFolderProblem(settings.dataDir)) ?? (resumeTaskId === undefined ? undefined : await resumeProblem(settings.dataDir, resumeTaskId)) ?? (await missingApiKeyMessage(settings));
    if (problem !== undefined) {
      // Said before the terminal UI opens, so nothing typed there is lost; the task given here is repeated.
      process.stderr.write(`cairn: ${problem}\n${task ? `Your task was not started; run it again once that is fixed: cairn ${JSON.stringify(task)}\n` : ""}`);
      return 2;
    }
    // Said once, before the terminal UI opens, and after what stops the start (a missing key comes first).
    if (settings.sandboxNotice !== undefined) process.stderr.write(`cairn: ${settings.sandboxNotice}\n`);
    const { readImageFlags } = await import("./mentions.js");
    const imageFlags = await readImageFlags(flags.image ?? []);
    if ("error" in imageFlags) {
      process.stderr.write(`cairn: ${imageFlags.error}\n`);
      return 2;
    }
    let resumeId: string | undefined;
    if (resumeTaskId !== undefined) {
      const { TaskStore } = await import("../store/task-store.js");
      resumeId = await new TaskStore({ dataDir: settings.dataDir }).resolveTaskId(resumeTaskId);
    }
    return await runInteractive({
      settings,
      ...(task ? { initialTask: task } : {}),
      ...(scenario ? { scenario } : {}),
      ...(resumeId ? { resumeTaskId: resumeId } : {}),
      reresolve: () => resolve(false),
      images: imageFlags.images,
      resolveWith: (changed) => resolveSettings({ flags: { ...flags, ...changed }, env: environmentWithSecrets(), cwd: process.cwd(), trust: flags.trust === true }),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

export function registerRunCommand(program: Command): void {
  addTaskOptions(program.command("run").description("run one task headless to its end").argument("[task...]", "what to do (- or none: read it from standard input)")).action(
    async (words: string[], flags: TaskCommandOptions) => {
      // `cairn run -` (or no task with input piped): the task comes from standard input (asks then follow --on-ask).
      // With a task, standard input stays for answers to asks.
      let task = words.join(" ");
      if (words.length === 0 || task === "-") {
        const { printModeTask } = await import("./piped-input.js");
        const given = await printModeTask(words.length === 0 ? "" : "-");
        if ("problem" in given) {
          process.stderr.write(`cairn: ${given.problem}\n`);
          process.exitCode = 2;
          return;
        }
        task = given.task;
      }
      const { emptyTaskMessage } = await import("./start-checks.js");
      const empty = emptyTaskMessage(task);
      if (empty !== undefined) {
        process.stderr.write(`cairn: ${empty}\n`);
        process.exitCode = 2;
        return;
      }
      const { expandTaskMentions } = await import("./mentions.js");
      process.exitCode = await runHeadless({ flags, start: { kind: "new", task: await expandTaskMentions(task, flags.cwd) } });
    },
  );
  addTaskOptions(
    program.command("resume").description("continue an interrupted or completed task").argument("<taskId>", "the task to resume (see cairn history)").argument("[message...]", "a message for the model"),
  ).action(async (taskId: string, words: string[], flags: TaskCommandOptions) => {
    process.exitCode = await runDefault(words, flags, taskId);
  });
}
