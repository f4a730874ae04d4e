/**
 * `cairn acp`: cairn as an Agent Client Protocol agent over stdio. Each ACP
 * session is one cairn task (its id is the task id, so `session/load` and
 * `cairn resume` reach the same task); every update is a projection of the
 * task's UI messages (update-projection.ts).
 */
import { enabledPlugins, pluginPlaces } from "../plugins/plugin-contributions.js";
import { isAbsolute } from "node:path";
import { Readable, Writable } from "node:stream";
import { PROTOCOL_VERSION, RequestError, agent, ndJsonStream } from "@agentclientprotocol/sdk";
import { blockedBaseUrlMessage } from "../security/cli-options.js";
import type { AgentConnection, ClientCapabilities, InitializeResponse } from "@agentclientprotocol/sdk";
import { ConfigError, requireApiKey, resolveSettings } from "../config/index.js";
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { modelInfo } from "../llm/models.js";
import { TaskNotFoundError, TaskStore } from "../store/task-store.js";
import { createTaskId } from "../store/task-id.js";
import { AcpSession } from "./acp-session.js";
import { availableCommands } from "./available-commands.js";
import { mcpServersFromClient } from "./mcp-servers.js";
import { userTurnFromPrompt } from "./prompt-content.js";

export interface AcpAgentOptions {
  flags: CliFlags;
  env: NodeJS.ProcessEnv;
  version: string;
  scenario?: Scenario;
  /** Whether cairn's command sandbox is on: sandboxed commands never run in the editor's terminal. */
  sandboxed?: (settings: ResolvedSettings) => boolean;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  log: (text: string) => void;
}

function configError(error: unknown): never {
  if (error instanceof ConfigError) throw RequestError.invalidParams(undefined, error.message);
  throw error;
}

/** Serves one client until it disconnects; resolves when the connection is closed and every task stopped. */
export async function serveAcp(options: AcpAgentOptions): Promise<void> {
  const sessions = new Map<string, AcpSession>();
  let clientCapabilities: ClientCapabilities = {};

  const settingsFor = async (cwd: string): Promise<ResolvedSettings> => {
    if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got "${cwd}"`);
    const settings = await resolveSettings({ flags: { ...options.flags, cwd }, env: options.env, cwd }).catch(configError);
    for (const warning of settings.warnings) options.log(`warning: ${warning}`);
    if (settings.sandboxNotice !== undefined) options.log(settings.sandboxNotice);
    // A project config that would send the key to another server needs confirmation (#14): refuse, as headless runs do.
    const blocked = settings.trust.blockedBaseUrl;
    if (blocked !== undefined) throw RequestError.invalidParams(undefined, blockedBaseUrlMessage(blocked, settings.projectConfigPath));
    // A missing key is said when the session opens, not after the first prompt.
    try {
      requireApiKey(settings);
    } catch (error) {
      configError(error);
    }
    return settings;
  };

  const sessionFor = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (session === undefined) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  const openSession = async (request: {
    sessionId: string;
    cwd: string;
    created: boolean;
    mcpServers: Parameters<typeof mcpServersFromClient>[0];
    client: ConstructorParameters<typeof AcpSession>[0]["client"];
    settings: ResolvedSettings;
  }): Promise<AcpSession> => {
    const { settings } = request;
    const session = new AcpSession({
      sessionId: request.sessionId,
      cwd: settings.cwd,
      settings,
      client: request.client,
      offers: {
        readTextFile: clientCapabilities.fs?.readTextFile === true,
        writeTextFile: clientCapabilities.fs?.writeTextFile === true,
        terminal: clientCapabilities.terminal === true && options.sandboxed?.(settings) !== true,
      },
      notices: clientCapabilities.session?.notices !== undefined && clientCapabilities.session.notices !== null,
      mcpServers: mcpServersFromClient(request.mcpServers),
      ...(options.scenario ? { scenario: options.scenario } : {}),
      created: request.created,
      log: options.log,
    });
    await sessions.get(request.sessionId)?.close();
    sessions.set(request.sessionId, session);
    return session;
  };

  const app = agent({ name: "cairn" })
    .onRequest("initialize", async ({ params }): Promise<InitializeResponse> => {
      clientCapabilities = params.clientCapabilities ?? {};
      const image = await imagesAccepted(options);
      // cairn speaks ACP v1: a client asking for another version gets ours and decides.
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: "cairn", title: "cairn", version: options.version },
        authMethods: [],
      };
    })
    .onRequest("session/new", async ({ params, client }) => {
      const settings = await settingsFor(params.cwd);
      const sessionId = createTaskId();
      const session = await openSession({ sessionId, cwd: params.cwd, created: false, mcpServers: params.mcpServers, client, settings });
      announceCommandsSoon(session, settings);
      return { sessionId, ...session.state() };
    })
    .onRequest("session/load", async ({ params, client }) => {
      const settings = await settingsFor(params.cwd);
      const store = new TaskStore({ dataDir: settings.dataDir });
      const loaded = await store.load(params.sessionId).catch((error: unknown) => {
        if (error instanceof TaskNotFoundError || (error instanceof Error && /not a valid task id/.test(error.message))) throw RequestError.sessionNotFound(params.sessionId);
        throw error;
      });
      if (loaded.meta.workspace !== settings.cwd) options.log(`session ${params.sessionId} was started in ${loaded.meta.workspace}; it continues in ${settings.cwd}`);
      const session = await openSession({ sessionId: params.sessionId, cwd: params.cwd, created: true, mcpServers: params.mcpServers, client, settings });
      session.replay(loaded.uiMessages);
      await session.flush();
      announceCommandsSoon(session, settings);
      return session.state();
    })
    .onRequest("session/prompt", async ({ params }) => {
      const session = sessionFor(params.sessionId);
      const stopReason = await session.prompt(userTurnFromPrompt(params.prompt));
      return { stopReason };
    })
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest("session/set_mode", ({ params }) => {
      const session = sessionFor(params.sessionId);
      if (!session.offersMode(params.modeId)) throw RequestError.invalidParams(undefined, unknownMode(params.modeId));
      session.setMode(params.modeId, "mode");
      return {};
    })
    .onRequest("session/set_config_option", ({ params }) => {
      const session = sessionFor(params.sessionId);
      const value = params.value;
      if (typeof value !== "string") throw RequestError.invalidParams(undefined, `option "${params.configId}" takes a value id`);
      if (params.configId === "mode") {
        if (!session.offersMode(value)) throw RequestError.invalidParams(undefined, unknownMode(value));
        session.setMode(value, "config_option");
      } else if (params.configId === "model") {
        session.setModel(value);
      } else {
        throw RequestError.invalidParams(undefined, `unknown config option "${params.configId}"; cairn has "mode" and "model"`);
      }
      return { configOptions: session.state().configOptions };
    });

  const stream = ndJsonStream(Writable.toWeb(options.output as Writable) as WritableStream<Uint8Array>, Readable.toWeb(options.input as Readable) as ReadableStream<Uint8Array>);
  const connection: AgentConnection = app.connect(stream);
  await connection.closed.catch((error: unknown) => options.log(`connection closed: ${error instanceof Error ? error.message : String(error)}`));
  await Promise.all([...sessions.values()].map((session) => session.close().catch(() => undefined)));
}

/** Images are offered when the configured model accepts them (a session's folder config may pick another model). */
async function imagesAccepted(options: AcpAgentOptions): Promise<boolean> {
  try {
    const settings = await resolveSettings({ flags: options.flags, env: options.env, cwd: process.cwd() });
    const overrides = Object.fromEntries(Object.entries(settings.models[settings.model] ?? {}).filter(([, value]) => value !== undefined));
    return modelInfo(settings.model, { overrides }).supportsImages;
  } catch {
    return false;
  }
}

/** After the response that names the session, so the editor knows which session the commands belong to. */
function announceCommandsSoon(session: AcpSession, settings: ResolvedSettings): void {
  setImmediate(() => {
    void enabledPlugins(pluginPlaces(settings))
      .then((plugins) => availableCommands({ workspace: settings.cwd, userConfigDir: settings.userConfigDir, claudeUserDir: settings.claudeUserDir, plugins: plugins.commands }))
      .then((commands) => session.announceCommands(commands));
  });
}

function unknownMode(id: string): string {
  return `unknown mode "${id}"; cairn has "act" and "plan" (and "auto" with --permission-mode auto or permissions.defaultMode "auto")`;
}
