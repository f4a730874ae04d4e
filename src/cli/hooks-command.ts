/**
 * `cairn hooks list`: what is configured and where from, and whether it runs.
 * `cairn hooks test EVENT`: runs that event's hooks with a sample payload.
 * `cairn hooks trust`: trusts this folder's hooks as they are now.
 */
import { commandSettings } from "./command-settings.js";
import { CommanderError, type Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";
import type { HookDialect } from "../hooks/hook-definition.js";

interface HooksCommandOptions {
  cwd?: string;
  json?: boolean;
}

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  throw new CommanderError(2, "cairn.hooks", message);
}

async function settingsFor(options: HooksCommandOptions): Promise<ResolvedSettings> {
  const settings = await commandSettings({ cwd: options.cwd });
  if (settings === 2) throw new CommanderError(2, "cairn.hooks", "the settings could not be read");
  return settings;
}

function sampleInput(event: string): Record<string, unknown> {
  switch (event) {
    case "PostToolUse":
      return { tool_response: { status: "success", content: "hello" } };
    case "PostToolUseFailure":
      return { error: "a sample failure", is_interrupt: false };
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

const toolEvents = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

export function registerHooksCommands(program: Command): void {
  const hooks = program.command("hooks").description("hooks: list what is configured, test an event, trust a project's hooks");

  hooks
    .command("list")
    .description("show the configured hooks, where each comes from, and whether it runs")
    .option("--cwd <dir>", "project folder")
    .option("--json", "print them as JSON")
    .action(async (options: HooksCommandOptions) => {
      const settings = await settingsFor(options);
      const { loadTrustedHooks } = await import("../session/hook-wiring.js");
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
        // Which tool names and shapes it is sent: Claude Code's, cairn's, or cairn's with Cline's fields (docs/hooks.md).
        toolNames: hook.dialect,
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
    .option("--tool <name>", "tool name for tool events, cairn's or Claude Code's (Bash, Edit, ...)", "execute_command")
    .option("--input <json>", "tool input for tool events, in the shape of --tool's name", '{"command":"echo hello"}')
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
      const [{ loadTrustedHooks, heldHookNotices, trustedAsIs }, { HookRunner, hooksMatching }, { describeHookReport }, { viewsOf, toolPayload }, { claudeCodeToolCall }] = await Promise.all([
        import("../session/hook-wiring.js"),
        import("../hooks/hook-runner.js"),
        import("../hooks/describe-hook.js"),
        import("../hooks/tool-hooks.js"),
        import("../hooks/claude-code-input.js"),
      ]);
      const { trusted } = await loadTrustedHooks(settings);
      const runner = new HookRunner({
        hooks: trusted.runnable,
        cwd: settings.cwd,
        env: { CLAUDE_PROJECT_DIR: settings.cwd, CAIRN_PROJECT_DIR: settings.cwd },
        mayRun: trustedAsIs(settings.cwd),
        basePayload: () => ({ session_id: "hooks-test", cwd: settings.cwd, workspace: settings.cwd, model: settings.model, provider: settings.provider, permission_mode: "default" }),
        onReport: (report) => process.stdout.write(`${describeHookReport(report, settings.cwd).text}\n`),
      });
      // The sample call, named as cairn or as Claude Code names it (`--tool Bash --input '{"command": "ls"}'`).
      const call = claudeCodeToolCall(options.tool, input, settings.cwd) ?? {
        name: options.tool,
        params: Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)])),
      };
      const views = viewsOf({ id: "sample", ...call }, settings.cwd);
      let heldBack = false;
      for (const event of events) {
        const tool = toolEvents.has(event);
        const subjects = event === "TaskStart" ? ["startup"] : event === "TaskResume" ? ["resume"] : tool ? (dialect: HookDialect) => views.of(dialect).subjects : [];
        const payload = tool ? toolPayload(views, () => sampleInput(event)) : sampleInput(event);
        const result = await runner.run(event, payload, { subjects });
        if (result.ran > 0) {
          const { ran: _ran, ...answer } = result;
          process.stdout.write(`${event}: ${JSON.stringify(answer)}\n`);
          continue;
        }
        // Nothing ran: say whether the project's hooks would have, had they been trusted.
        const held = hooksMatching(
          trusted.held.map((entry) => entry.hook),
          event,
          subjects,
        );
        const notices = heldHookNotices({ runnable: [], held: trusted.held.filter((entry) => held.includes(entry.hook)) });
        if (notices.length > 0) {
          heldBack = true;
          process.stdout.write(`No ${event} hook ran: the project's hooks that match are not trusted as they are now.\n${notices.map((notice) => `  ${notice}`).join("\n")}\n`);
        } else {
          process.stdout.write(`No ${event} hooks matched.\n`);
        }
      }
      const untrustedConfig = !settings.trust.trusted && settings.trust.gated.includes("hooks");
      if (untrustedConfig) process.stdout.write(`Hooks in ${settings.projectConfigPath} are ignored: this folder is not trusted (review them, then run \`cairn hooks trust\`).\n`);
      if (heldBack) process.exitCode = 1;
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
      const [{ discoverSettingsHooks }, { trustProjectHooks }, { hookLabel }] = await Promise.all([import("../session/hook-wiring.js"), import("../hooks/hook-trust.js"), import("../hooks/hook-definition.js")]);
      const { hooks: found } = await discoverSettingsHooks(settings);
      await trustProjectHooks({ folder: settings.trust.folder, userConfigDir: settings.userConfigDir, hooks: found });
      const project = found.filter((hook) => hook.scope === "project");
      process.stdout.write(project.length === 0 ? "This folder is trusted; it has no project hooks.\n" : `Trusted ${project.length} project hook(s):\n`);
      for (const hook of project) process.stdout.write(`  ${hook.event}: ${hookLabel(hook)}\n`);
    });
}
