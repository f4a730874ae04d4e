/**
 * `cairn hooks list`: what is configured and where from, and whether it runs.
 * `cairn hooks test EVENT`: runs that event's hooks with a sample payload.
 * `cairn hooks trust`: trusts this folder's hooks as they are now.
 */
import { environmentWithSecrets } from "../security/secret-environment.js";
import { CommanderError, type Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";

interface HooksCommandOptions {
  cwd?: string;
  json?: boolean;
}

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  throw new CommanderError(2, "cairn.hooks", message);
}

async function settingsFor(options: HooksCommandOptions): Promise<ResolvedSettings> {
  const { ConfigError, resolveSettings } = await import("../config/index.js");
  try {
    return await resolveSettings({ flags: {}, env: environmentWithSecrets(), cwd: options.cwd ?? process.cwd() });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

function sampleInput(event: string, tool: string, input: Record<string, unknown>): Record<string, unknown> {
  switch (event) {
    case "PreToolUse":
    case "PermissionRequest":
      return { tool_name: tool, tool_input: input, tool_use_id: "sample" };
    case "PostToolUse":
      return { tool_name: tool, tool_input: input, tool_use_id: "sample", tool_response: { status: "success", content: "hello" } };
    case "UserPromptSubmit":
      return { prompt: "a sample prompt" };
    case "TaskStart":
      return { task: "a sample task", source: "startup" };
    case "TaskResume":
      return { source: "resume" };
    case "TaskComplete":
      return { result: "a sample result", stop_hook_active: false };
    case "Notification":
      return { message: "cairn needs your answer", notification_type: "followup" };
    case "PreCompact":
      return { trigger: "manual", custom_instructions: "" };
    default:
      return {};
  }
}

export function registerHooksCommands(program: Command): void {
  const hooks = program.command("hooks").description("hooks: list what is configured, test an event, trust a project's hooks");

  hooks
    .command("list")
    .description("show the configured hooks, where each comes from, and whether it runs")
    .option("--cwd <dir>", "project folder")
    .option("--json", "print them as JSON")
    .action(async (options: HooksCommandOptions) => {
      const settings = await settingsFor(options);
      const { loadTrustedHooks } = await import("./hook-wiring.js");
      const { discovered, trusted } = await loadTrustedHooks(settings);
      const held = new Map(trusted.held.map((entry) => [entry.hook, entry.why]));
      const rows = discovered.hooks.map((hook) => ({
        event: hook.event,
        configuredAs: hook.configuredAs,
        matcher: hook.matcher ?? "*",
        command: hook.command,
        timeoutSeconds: hook.timeoutMs / 1000,
        scope: hook.scope,
        source: hook.origin.file,
        form: hook.origin.kind,
        status: held.get(hook) ?? "runs",
      }));
      const untrustedConfig = !settings.trust.trusted && settings.trust.gated.includes("hooks");
      if (options.json === true) {
        process.stdout.write(`${JSON.stringify({ hooks: rows, warnings: discovered.warnings, untrustedConfigHooks: untrustedConfig }, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) process.stdout.write("No hooks configured.\n");
      for (const row of rows) {
        const alias = row.configuredAs === row.event ? "" : ` (as ${row.configuredAs})`;
        process.stdout.write(`${row.event}${alias}  matcher ${row.matcher}  ${row.status}\n  ${row.command}\n  from ${row.scope} ${row.source}, timeout ${row.timeoutSeconds} s\n`);
      }
      if (untrustedConfig) process.stdout.write(`Hooks in ${settings.projectConfigPath} are ignored: this folder is not trusted (run once with --trust).\n`);
      for (const warning of discovered.warnings) process.stderr.write(`warning: ${warning}\n`);
    });

  hooks
    .command("test")
    .description("run an event's hooks with a sample payload and show what they answered")
    .argument("<event>", "TaskStart, PreToolUse, ... (Claude Code names such as SessionStart or Stop work too)")
    .option("--cwd <dir>", "project folder")
    .option("--tool <name>", "tool name for tool events", "execute_command")
    .option("--input <json>", "tool input for tool events", '{"command":"echo hello"}')
    .action(async (eventName: string, options: HooksCommandOptions & { tool: string; input: string }) => {
      const { eventsNamed, acceptedEventNames } = await import("../hooks/events.js");
      const events = eventsNamed(eventName);
      if (events.length === 0) fail(`unknown hook event "${eventName}" (known: ${acceptedEventNames().join(", ")})`);
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(options.input) as Record<string, unknown>;
      } catch {
        fail(`--input is not valid JSON: ${options.input}`);
      }
      const settings = await settingsFor(options);
      const [{ loadTrustedHooks, heldHookNotices }, { HookRunner }, { describeHookReport }, { matchableToolNames }] = await Promise.all([
        import("./hook-wiring.js"),
        import("../hooks/hook-runner.js"),
        import("../hooks/describe-hook.js"),
        import("../hooks/tool-names.js"),
      ]);
      const { trusted } = await loadTrustedHooks(settings);
      for (const notice of heldHookNotices(trusted)) process.stderr.write(`warning: ${notice}\n`);
      const runner = new HookRunner({
        hooks: trusted.runnable,
        cwd: settings.cwd,
        env: { CLAUDE_PROJECT_DIR: settings.cwd, CAIRN_PROJECT_DIR: settings.cwd },
        basePayload: () => ({ session_id: "hooks-test", cwd: settings.cwd, workspace: settings.cwd, model: settings.model, provider: settings.provider }),
        onReport: (report) => process.stdout.write(`${describeHookReport(report, settings.cwd).text}\n`),
      });
      for (const event of events) {
        const subjects = event === "TaskStart" ? ["startup"] : event === "TaskResume" ? ["resume"] : event.endsWith("ToolUse") || event === "PermissionRequest" ? matchableToolNames(options.tool, input) : [];
        const result = await runner.run(event, sampleInput(event, options.tool, input), { subjects });
        if (result.ran === 0) {
          process.stdout.write(`No ${event} hooks matched.\n`);
          continue;
        }
        const { ran: _ran, ...answer } = result;
        process.stdout.write(`${event}: ${JSON.stringify(answer)}\n`);
      }
    });

  hooks
    .command("trust")
    .description("trust this folder and its project hooks as they are now (after reviewing them)")
    .option("--cwd <dir>", "project folder")
    .action(async (options: HooksCommandOptions) => {
      const first = await settingsFor(options);
      const { trustFolder } = await import("../config/trust.js");
      await trustFolder(first.cwd, first.userConfigDir);
      const settings = await settingsFor(options);
      const [{ discoverSettingsHooks }, { trustProjectHooks }, { hookLabel }] = await Promise.all([
        import("./hook-wiring.js"),
        import("../hooks/hook-trust.js"),
        import("../hooks/hook-definition.js"),
      ]);
      const { hooks: found } = await discoverSettingsHooks(settings);
      await trustProjectHooks({ folder: settings.trust.folder, userConfigDir: settings.userConfigDir, hooks: found });
      const project = found.filter((hook) => hook.scope === "project");
      process.stdout.write(project.length === 0 ? "This folder is trusted; it has no project hooks.\n" : `Trusted ${project.length} project hook(s):\n`);
      for (const hook of project) process.stdout.write(`  ${hook.event}: ${hookLabel(hook)}\n`);
    });
}
